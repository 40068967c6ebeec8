import type { EntityManager } from '@mikro-orm/postgresql';
import { allPages } from '../cloud/pages.js';
import type {
  CloudEnrollmentConfiguration,
  CloudEnrollmentConfigurations,
  CloudEnrollmentPlatformRule,
  CloudEnrollmentSettings,
  CloudRestrictionPlatform,
} from '../cloud/device-management.provider.js';
import { ConflictError, NotSupportedError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { Group } from '../users/group.entity.js';
import { EnrollmentPlatform, RestrictionType } from './enrollment.enums.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import type { PolicyDraft } from './enrollment-policy.validation.js';

/**
 * Our enrollment restriction policies written to a cloud that enforces restrictions itself (Intune's
 * deviceEnrollmentConfigurations; docs/microsoft365.md "Enrollment restrictions"). The writes happen in the
 * request, inside the transaction that stores the policy: a cloud that refuses, throttles (503 with
 * Retry-After) or fails leaves nothing stored. Our policy stays the truth (its If-Match/ETag is ours); the
 * sync reports a configuration changed in the Intune portal as drift (`cloudDrift`).
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

/** How the cloud's configuration differs from what we wrote, in a sentence; null when it does not. */
export function driftOf(ours: CloudEnrollmentSettings, theirs: CloudEnrollmentConfiguration): string | null {
  const differences: string[] = [];
  if (ours.displayName !== theirs.displayName) differences.push(`name "${theirs.displayName}"`);
  if (ours.kind === 'limit' && theirs.kind === 'limit' && ours.limit !== theirs.limit)
    differences.push(`limit ${theirs.limit} (ours ${ours.limit})`);
  if (ours.kind === 'platformRestrictions' && theirs.kind === 'platformRestrictions')
    for (const platform of Object.keys(ours.rules) as CloudRestrictionPlatform[])
      if (JSON.stringify(ours.rules[platform]) !== JSON.stringify(theirs.rules[platform]))
        differences.push(`${platform} rule ${JSON.stringify(theirs.rules[platform])}`);
  return differences.length > 0 ? `Changed in Intune: ${differences.join(', ')}` : null;
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

/** Who the policy applies to, with the cloud's ids of its groups. */
async function targetsOf(em: EntityManager, policy: EnrollmentRestriction) {
  if (policy.assignedToAllUsers) return { allUsers: true, groupExternalIds: [] };
  const groups = await em.find(Group, { id: { $in: policy.groupIds } }, { fields: ['externalId'] });
  return { allUsers: false, groupExternalIds: groups.map((group) => group.externalId) };
}

/**
 * Writes a policy (just created or changed, not yet committed) to the tenant's cloud: its configuration
 * (created under a request key the first time, so a retried create finds the one a first try made), its
 * priority and its assignments. The default is Intune's own default device limit (priority 0, assigned to
 * everyone by Intune): only its limit is written. Sets `cloudId` and clears `cloudDrift`.
 */
export async function writePolicyToCloud(
  em: EntityManager,
  configurations: CloudEnrollmentConfigurations,
  policy: EnrollmentRestriction,
): Promise<void> {
  const settings = cloudSettingsOf(policy);
  if (policy.isDefault) {
    if (!policy.cloudId) {
      const all = (await allPages(configurations.list())).flat();
      const builtIn = all.find((found) => found.kind === 'limit' && found.priority === 0);
      if (!builtIn) throw new ConflictError('The tenant has no default Intune device limit to write to');
      policy.cloudId = builtIn.id;
    }
    await configurations.update(policy.cloudId, settings);
  } else if (!policy.cloudId) {
    const made = await configurations.create(
      settings,
      `enrollment-restriction:${policy.tenantId}:${policy.name}`,
    );
    const holder = await em.findOne(EnrollmentRestriction, { tenantId: policy.tenantId, cloudId: made.id });
    if (holder && holder.id !== policy.id)
      throw new ConflictError(
        `Another enrollment restriction of the tenant (${holder.id}) is written to the Intune configuration ` +
          `named "${policy.name}": give this one another name`,
        { field: 'name' },
      );
    if (driftOf(settings, made)) await configurations.update(made.id, settings);
    if (made.priority !== policy.priority) await configurations.setPriority(made.id, policy.priority);
    await configurations.assign(made.id, await targetsOf(em, policy));
    policy.cloudId = made.id;
  } else {
    await configurations.update(policy.cloudId, settings);
    await configurations.assign(policy.cloudId, await targetsOf(em, policy));
  }
  policy.cloudDrift = null;
}
