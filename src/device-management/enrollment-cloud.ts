import type {
  CloudEnrollmentConfiguration,
  CloudEnrollmentConfigurations,
  CloudEnrollmentPlatformRule,
  CloudEnrollmentSettings,
  CloudRestrictionPlatform,
} from '../cloud/device-management.provider.js';
import { NotSupportedError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { EnrollmentPlatform, RestrictionType } from './enrollment.enums.js';
import type { PolicyDraft } from './enrollment-policy.validation.js';

/**
 * Our enrollment restriction policies as a cloud that enforces restrictions itself holds them (Intune's
 * deviceEnrollmentConfigurations; docs/microsoft365.md "Enrollment restrictions"): the mapping, what it cannot
 * hold, drift. The writes are enrollment-cloud-write.ts. Our policy stays the truth (its If-Match/ETag is
 * ours); the sync reports a configuration changed in the Intune portal as drift (`cloudDrift`).
 */

const CLOUD_PLATFORM: Partial<Record<EnrollmentPlatform, CloudRestrictionPlatform>> = {
  [EnrollmentPlatform.WINDOWS]: 'windows',
  [EnrollmentPlatform.MACOS]: 'macOS',
  [EnrollmentPlatform.IOS]: 'ios',
  [EnrollmentPlatform.ANDROID_DEVICE_ADMIN]: 'android',
};

const ALLOWED: CloudEnrollmentPlatformRule = {
  platformBlocked: false,
  personalDeviceEnrollmentBlocked: false,
  osMinimumVersion: null,
  osMaximumVersion: null,
};

/**
 * The Intune configuration a policy is written as, or 501 NOT_SUPPORTED naming each setting Graph v1.0
 * cannot hold (nothing is written then): corporate-owned blocks, manufacturer blocks, an Android Enterprise
 * rule other than "allowed", per-platform limits (but the default's SPEC values) and group overrides.
 */
export function cloudSettingsOf(draft: PolicyDraft): CloudEnrollmentSettings {
  const problems: { field: string; problem: string }[] = [];
  const common = { displayName: draft.name, description: draft.description };
  let settings: CloudEnrollmentSettings;
  if (draft.restrictionType === RestrictionType.DEVICE_TYPE) {
    const rules: Record<CloudRestrictionPlatform, CloudEnrollmentPlatformRule> = {
      windows: ALLOWED,
      macOS: ALLOWED,
      ios: ALLOWED,
      android: ALLOWED,
    };
    draft.platformRestrictions.forEach((row, i) => {
      const field = `platformRestrictions[${i}]`;
      if (row.corporateAllowed === false)
        problems.push({
          field: `${field}.corporateAllowed`,
          problem: 'Intune cannot block corporate devices',
        });
      if ((row.blockedManufacturers ?? []).length > 0)
        problems.push({
          field: `${field}.blockedManufacturers`,
          problem: 'Graph v1.0 has no manufacturer block',
        });
      const platform = CLOUD_PLATFORM[row.platform];
      const rule: CloudEnrollmentPlatformRule = {
        platformBlocked: !row.allowed,
        personalDeviceEnrollmentBlocked: row.personalAllowed === false,
        osMinimumVersion: row.minOsVersion ?? null,
        osMaximumVersion: row.maxOsVersion ?? null,
      };
      if (platform) rules[platform] = rule;
      else if (JSON.stringify(rule) !== JSON.stringify(ALLOWED))
        problems.push({ field, problem: 'Graph v1.0 has no Android Enterprise restriction (allowed only)' });
    });
    settings = { kind: 'platformRestrictions', ...common, rules };
  } else {
    if (!draft.isDefault && draft.platformLimits.length > 0)
      problems.push({
        field: 'platformLimits',
        problem: 'Intune limits devices per user only, not per platform',
      });
    if (draft.groupOverrides.length > 0)
      problems.push({
        field: 'groupOverrides',
        problem: 'Intune has no per-group limit within a restriction',
      });
    settings = { kind: 'limit', ...common, limit: draft.deviceLimit ?? 0 };
  }
  if (problems.length > 0)
    throw new NotSupportedError(
      `Intune (Microsoft Graph v1.0) cannot hold this restriction: ${problems.map((p) => `${p.field}: ${p.problem}`).join('; ')}`,
      { capability: 'deviceEnrollment', provider: 'microsoft365', problems },
    );
  return settings;
}

const DRIFT_PREFIX = 'Changed in Intune: ';
/** A moved place, which `driftOf` puts first: nothing of the cloud's (a display name) comes before it. */
const PLACE_DRIFT = /^Changed in Intune: (priority \d+ \(ours \d+\))(?:, |$)/;

/**
 * How the cloud's configuration differs from what we wrote, in a sentence; null when it does not. `place`:
 * where ours puts it in Intune's order of its kind (enrollment-cloud-write.ts), compared when given. A moved
 * place comes first, so `driftAfterEdit` can tell it from the rest.
 */
export function driftOf(
  ours: CloudEnrollmentSettings,
  theirs: CloudEnrollmentConfiguration,
  place?: number,
): string | null {
  const differences: string[] = [];
  if (place !== undefined && theirs.priority !== place)
    differences.push(`priority ${theirs.priority} (ours ${place})`);
  if (ours.displayName !== theirs.displayName) differences.push(`name "${theirs.displayName}"`);
  if (ours.kind === 'limit' && theirs.kind === 'limit' && ours.limit !== theirs.limit)
    differences.push(`limit ${theirs.limit} (ours ${ours.limit})`);
  if (ours.kind === 'platformRestrictions' && theirs.kind === 'platformRestrictions')
    for (const platform of Object.keys(ours.rules) as CloudRestrictionPlatform[])
      if (JSON.stringify(ours.rules[platform]) !== JSON.stringify(theirs.rules[platform]))
        differences.push(`${platform} rule ${JSON.stringify(theirs.rules[platform])}`);
  return differences.length > 0 ? `${DRIFT_PREFIX}${differences.join(', ')}` : null;
}

/**
 * What is left of a policy's drift once an edit has written it to Intune: the edit writes its settings and
 * assignment (name, rules, limit: that drift is gone), never its place, which only a reorder writes. A priority
 * moved in the portal therefore stays reported until the next sync after a reorder (docs/decisions.md
 * "Priority drift and a create Intune took").
 */
export function driftAfterEdit(drift: string | null): string | null {
  const place = drift === null ? undefined : PLACE_DRIFT.exec(drift)?.[1];
  return place === undefined ? null : `${DRIFT_PREFIX}${place}`;
}

/** The tenant's enrollment configurations on its cloud, null when the cloud enforces none of its own. */
export async function cloudConfigurationsOf(
  ctx: ServiceContext,
  tenant: Pick<Tenant, 'externalId'>,
): Promise<CloudEnrollmentConfigurations | null> {
  return (await ctx.cloud.forTenant(tenant.externalId)).deviceManagement.enrollmentConfigurations;
}

/**
 * An empty list of blocked attempts must not pretend: on a cloud that enforces restrictions itself, the
 * attempts are asked of it, and Microsoft 365 answers Unsupported (`blockedEnrollments`, 501 in a request).
 */
export async function assertBlockedAttemptsAvailable(
  ctx: ServiceContext,
  tenant: Pick<Tenant, 'externalId'>,
): Promise<void> {
  const cloud = await ctx.cloud.forTenant(tenant.externalId);
  if (!cloud.deviceManagement.enrollmentConfigurations) return;
  for await (const page of cloud.deviceManagement.listEnrollmentAttempts(null)) if (page) break;
}
