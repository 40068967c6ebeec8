import { DeviceOwnership, type OsPlatform } from '../devices/device.enums.js';
import { compareVersions } from './os-version.js';
import {
  BlockReason,
  MANUFACTURER_BLOCK_PLATFORMS,
  OS_OF_ENROLLMENT_PLATFORM,
  RestrictionType,
  type EnrollmentPlatform,
} from './enrollment.enums.js';
import type { EnrollmentRestriction } from './enrollment-policy.entity.js';

/**
 * The evaluation engine (SPEC 4.4; docs/devices.md "Evaluation order"), pure so it can be tested at its
 * edges and shared by the dry evaluation (GraphQL `evaluateEnrollment`) and tenant sync. Two questions are
 * asked in turn, each answered by the FIRST policy by priority that is of its type and applies to the user
 * (assigned to all users, or to a group the user is in):
 *   1. device type: may this platform / ownership / OS version / manufacturer enroll? No policy of that type
 *      applies: every platform may (the cloud's own default).
 *   2. device limit: has the user reached the per-user limit (a group override first) or the platform's
 *      limit? The built-in default policy, last and assigned to all users, always applies.
 * The first refusal is the decision, with the policy that gave it.
 */

export interface EnrollmentAttempt {
  platform: EnrollmentPlatform;
  osVersion: string;
  ownership: DeviceOwnership;
  manufacturer: string;
}

/** What the engine needs to know about the enrolling user. */
export interface EnrollingUser {
  groupIds: ReadonlySet<string>;
  /** Devices the user has now, per OS platform (absent: none). */
  deviceCounts: ReadonlyMap<OsPlatform, number>;
}

type PolicyView = Pick<
  EnrollmentRestriction,
  | 'id'
  | 'name'
  | 'restrictionType'
  | 'isDefault'
  | 'priority'
  | 'assignedToAllUsers'
  | 'groupIds'
  | 'platformRestrictions'
  | 'deviceLimit'
  | 'platformLimits'
  | 'groupOverrides'
>;

export interface EnrollmentDecision {
  allowed: boolean;
  reason: BlockReason | null;
  detail: string;
  /** The policy that blocked (or, when allowed, the device limit policy that allowed last); null: none. */
  decidedBy: { id: string; name: string } | null;
  deviceTypePolicyId: string | null;
  deviceLimitPolicyId: string | null;
}

function appliesTo(policy: PolicyView, user: EnrollingUser): boolean {
  return policy.assignedToAllUsers || policy.groupIds.some((groupId) => user.groupIds.has(groupId));
}

/** The first policy of a type that applies to the user, in priority order (the default last). */
function firstApplicable(policies: PolicyView[], type: RestrictionType, user: EnrollingUser) {
  return policies.find((policy) => policy.restrictionType === type && appliesTo(policy, user)) ?? null;
}

/** Policies in evaluation order: by priority, the default after every other. */
export function inPriorityOrder<T extends Pick<PolicyView, 'isDefault' | 'priority'>>(policies: T[]): T[] {
  return [...policies].sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || a.priority - b.priority);
}

function deviceTypeRefusal(
  policy: PolicyView,
  attempt: EnrollmentAttempt,
): { reason: BlockReason; detail: string } | null {
  const rule = policy.platformRestrictions.find((row) => row.platform === attempt.platform);
  if (!rule) return null;
  if (!rule.allowed)
    return { reason: BlockReason.PLATFORM_BLOCKED, detail: `${attempt.platform} is blocked` };
  if (attempt.ownership === DeviceOwnership.PERSONAL && !rule.personalAllowed) {
    return {
      reason: BlockReason.PERSONAL_DEVICE,
      detail: `Personally owned ${attempt.platform} devices are blocked`,
    };
  }
  if (attempt.ownership === DeviceOwnership.CORPORATE && !rule.corporateAllowed) {
    return {
      reason: BlockReason.PLATFORM_BLOCKED,
      detail: `Corporate-owned ${attempt.platform} devices are blocked`,
    };
  }
  if (rule.minOsVersion && compareVersions(attempt.osVersion, rule.minOsVersion) < 0) {
    return {
      reason: BlockReason.OS_VERSION,
      detail: `OS version ${attempt.osVersion} is below the minimum ${rule.minOsVersion}`,
    };
  }
  if (rule.maxOsVersion && compareVersions(attempt.osVersion, rule.maxOsVersion) > 0) {
    return {
      reason: BlockReason.OS_VERSION,
      detail: `OS version ${attempt.osVersion} is above the maximum ${rule.maxOsVersion}`,
    };
  }
  const manufacturer = attempt.manufacturer.trim().toLowerCase();
  if (
    MANUFACTURER_BLOCK_PLATFORMS.has(attempt.platform) &&
    (rule.blockedManufacturers ?? []).some((blocked) => blocked.trim().toLowerCase() === manufacturer)
  ) {
    return {
      reason: BlockReason.PLATFORM_BLOCKED,
      detail: `Devices made by ${attempt.manufacturer} are blocked`,
    };
  }
  return null;
}

function deviceLimitRefusal(
  policy: PolicyView,
  attempt: EnrollmentAttempt,
  user: EnrollingUser,
): { reason: BlockReason; detail: string } | null {
  const override = policy.groupOverrides.find((row) => user.groupIds.has(row.groupId));
  const perUser = override?.deviceLimit ?? policy.deviceLimit;
  const total = [...user.deviceCounts.values()].reduce((sum, count) => sum + count, 0);
  if (perUser !== null && total >= perUser) {
    return {
      reason: BlockReason.DEVICE_LIMIT,
      detail: `The user has ${total} devices; the limit is ${perUser}${override ? ' (group override)' : ''}`,
    };
  }
  const os = OS_OF_ENROLLMENT_PLATFORM[attempt.platform];
  const platformLimit = policy.platformLimits.find((row) => row.platform === os)?.limit;
  const onPlatform = user.deviceCounts.get(os) ?? 0;
  if (platformLimit !== undefined && onPlatform >= platformLimit) {
    return {
      reason: BlockReason.DEVICE_LIMIT,
      detail: `The user has ${onPlatform} ${os} devices; the ${os} limit is ${platformLimit}`,
    };
  }
  return null;
}

/** Decides one attempt against the tenant's policies (any order: they are sorted here). */
export function evaluateEnrollment(
  policies: PolicyView[],
  attempt: EnrollmentAttempt,
  user: EnrollingUser,
): EnrollmentDecision {
  const ordered = inPriorityOrder(policies);
  const typePolicy = firstApplicable(ordered, RestrictionType.DEVICE_TYPE, user);
  const limitPolicy = firstApplicable(ordered, RestrictionType.DEVICE_LIMIT, user);
  const ids = { deviceTypePolicyId: typePolicy?.id ?? null, deviceLimitPolicyId: limitPolicy?.id ?? null };
  for (const [policy, refusal] of [
    [typePolicy, typePolicy && deviceTypeRefusal(typePolicy, attempt)],
    [limitPolicy, limitPolicy && deviceLimitRefusal(limitPolicy, attempt, user)],
  ] as const) {
    if (policy && refusal) {
      return { allowed: false, ...refusal, decidedBy: { id: policy.id, name: policy.name }, ...ids };
    }
  }
  const decider = limitPolicy ?? typePolicy;
  return {
    allowed: true,
    reason: null,
    detail: 'Allowed',
    decidedBy: decider ? { id: decider.id, name: decider.name } : null,
    ...ids,
  };
}
