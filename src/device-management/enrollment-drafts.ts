import { InvalidRequestError } from '../core/errors.js';
import type { EnrollmentRestriction } from './enrollment-policy.entity.js';
import type { UpdateEnrollmentRestrictionInput } from './enrollment-policy.types.js';
import { withEveryPlatform, type PolicyDraft } from './enrollment-policy.validation.js';
import { RestrictionType } from './enrollment.enums.js';

/** Policy drafts as the services build them from inputs, before validation and storage. */

/** `"3"`, `W/"3"` or `3` → 3; anything else is a bad header (400 naming If-Match). */
export function expectedVersionOf(ifMatch: string): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch);
  if (!match) throw InvalidRequestError.field('If-Match', 'must be the ETag of the policy, e.g. "3"');
  return Number(match[1]);
}

/** A draft as the client gave it, trimmed and with absent values made explicit (platform rows in its order). */
export function normalized(draft: PolicyDraft): PolicyDraft {
  return {
    ...draft,
    name: draft.name.trim(),
    platformRestrictions: draft.platformRestrictions.map((row) => ({
      platform: row.platform,
      allowed: row.allowed,
      corporateAllowed: row.corporateAllowed ?? true,
      personalAllowed: row.personalAllowed ?? true,
      minOsVersion: row.minOsVersion ?? null,
      maxOsVersion: row.maxOsVersion ?? null,
      blockedManufacturers: (row.blockedManufacturers ?? []).map((maker) => maker.trim()),
    })),
    platformLimits: draft.platformLimits.map(({ platform, limit }) => ({ platform, limit })),
    groupOverrides: draft.groupOverrides.map(({ groupId, deviceLimit }) => ({ groupId, deviceLimit })),
  };
}

/** What is stored once valid: a device type restriction lists every platform (those not given: allowed). */
export function stored(draft: PolicyDraft): PolicyDraft {
  return draft.restrictionType === RestrictionType.DEVICE_TYPE
    ? { ...draft, platformRestrictions: withEveryPlatform(draft.platformRestrictions) }
    : draft;
}

/** A stored policy with the fields an update gives changed (absent or null: kept; description null clears). */
export function updatedDraft(
  policy: EnrollmentRestriction,
  input: UpdateEnrollmentRestrictionInput,
): PolicyDraft {
  const defined = <T>(value: T | undefined | null, current: T): T =>
    value === undefined || value === null ? current : value;
  return normalized({
    name: defined(input.name, policy.name),
    description: input.description === undefined ? policy.description : input.description,
    restrictionType: policy.restrictionType,
    isDefault: policy.isDefault,
    assignedToAllUsers: defined(input.assignedToAllUsers, policy.assignedToAllUsers),
    groupIds: defined(input.groupIds, policy.groupIds),
    platformRestrictions: defined(input.platformRestrictions, policy.platformRestrictions),
    deviceLimit: input.deviceLimit === undefined ? policy.deviceLimit : input.deviceLimit,
    platformLimits: defined(input.platformLimits, policy.platformLimits),
    groupOverrides: defined(input.groupOverrides, policy.groupOverrides),
  });
}
