import type { CloudEnrollmentAttemptRecord } from '../cloud/device-management.provider.js';
import type { ServiceContext } from '../core/service-context.js';
import type { DeviceOwnership } from '../devices/device.enums.js';
import type { SyncStep, SyncTenant } from '../sync/sync-step.js';
import { RestrictionType, type EnrollmentPlatform } from './enrollment.enums.js';
import { evaluateEnrollment } from './enrollment-evaluation.js';
import { enrollingUsers, ensureDefaultPolicy, policiesOf } from './enrollment-facts.js';
import { allPages } from '../cloud/pages.js';
import { unsupportedCloudError } from '../cloud/cloud-error.js';
import type { CloudEnrollmentConfiguration } from '../cloud/device-management.provider.js';
import { cloudSettingsOf, driftOf } from './enrollment-cloud.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';

/** One statement for all blocked attempts; an attempt already recorded (a re-sync) is left alone. */
const RECORD_SQL = `
  insert into blocked_enrollment_attempts (id, organization_id, environment, tenant_id, external_id, user_id,
    user_principal_name, device_name, platform, os_version, ownership, manufacturer, reason, detail, policy_id,
    policy_name, attempted_at, recorded_at)
  select gen_random_uuid(), ?, ?, ?, r."externalId", r."userId", r."userPrincipalName", r."deviceName",
    r.platform, r."osVersion", r.ownership, r.manufacturer, r.reason, r.detail, r."policyId", r."policyName",
    r."attemptedAt", ?
  from jsonb_to_recordset(?::jsonb) as r("externalId" text, "userId" uuid, "userPrincipalName" text,
    "deviceName" text, platform text, "osVersion" text, ownership text, manufacturer text, reason text,
    detail text, "policyId" uuid, "policyName" text, "attemptedAt" timestamptz)
  on conflict (organization_id, environment, tenant_id, external_id) do nothing`;

/**
 * Decides each enrollment attempt of the snapshot with the tenant's policies (enrollment-evaluation.ts) and
 * records the blocked ones, inside the sync's transaction, in a fixed number of statements. The user's
 * device counts are those of our devices table after this sync's device reconcile.
 */
export async function recordBlockedEnrollments(
  ctx: ServiceContext,
  tenant: Pick<SyncTenant, 'id'>,
  attempts: CloudEnrollmentAttemptRecord[],
  now: Date,
): Promise<Record<string, number>> {
  if (attempts.length === 0) return { enrollmentsBlocked: 0 };
  await ensureDefaultPolicy(ctx.em, ctx.scope, tenant.id, now);
  const policies = await policiesOf(ctx.em, tenant.id);
  const users = await enrollingUsers(ctx.em, ctx.scope, tenant.id, {
    externalIds: [...new Set(attempts.map((attempt) => attempt.userExternalId))],
  });
  const blocked = attempts.flatMap((attempt) => {
    const user = users.get(attempt.userExternalId);
    const decision = evaluateEnrollment(
      policies,
      {
        platform: attempt.platform as EnrollmentPlatform,
        osVersion: attempt.osVersion,
        ownership: attempt.ownership as DeviceOwnership,
        manufacturer: attempt.manufacturer,
      },
      user ?? { groupIds: new Set(), deviceCounts: new Map() },
    );
    if (decision.allowed) return [];
    return [
      {
        ...attempt,
        userId: user?.id ?? null,
        reason: decision.reason,
        detail: decision.detail,
        policyId: decision.decidedBy?.id ?? null,
        policyName: decision.decidedBy?.name ?? '',
      },
    ];
  });
  if (blocked.length === 0) return { enrollmentsBlocked: 0 };
  const result = await ctx.em.execute(
    RECORD_SQL,
    [ctx.scope.organizationId, ctx.scope.environment, tenant.id, now, JSON.stringify(blocked)],
    'run',
  );
  return { enrollmentsBlocked: (result as { affectedRows?: number }).affectedRows ?? 0 };
}

/**
 * Where each written non-default policy belongs in Intune's order of its kind: its place among ours of that
 * kind still in Intune (1..n, ours first: a configuration made in the portal comes after them).
 */
function intunePlaces(
  written: readonly EnrollmentRestriction[],
  inCloud: ReadonlyMap<string, unknown>,
): Map<string, number> {
  const places = new Map<string, number>();
  for (const kind of Object.values(RestrictionType))
    written
      .filter(
        (policy) => !policy.isDefault && policy.restrictionType === kind && inCloud.has(policy.cloudId!),
      )
      .sort((a, b) => a.priority - b.priority)
      .forEach((policy, index) => places.set(policy.id, index + 1));
  return places;
}

/**
 * Compares the tenant's policies written to the cloud with the cloud's configurations as read now: one that
 * was changed, moved in its kind's priority order or deleted in the Intune portal gets `cloudDrift` saying
 * how; ours stays the truth (docs/decisions.md "Priority drift and a create Intune took"): the next edit
 * writes its settings again, the next reorder its place. Counted as `enrollmentRestrictionsDrifted`.
 */
async function recordDrift(
  ctx: ServiceContext,
  tenantId: string,
  configurations: CloudEnrollmentConfiguration[],
): Promise<number> {
  const byId = new Map(configurations.map((configuration) => [configuration.id, configuration]));
  const written = await ctx.em.find(EnrollmentRestriction, { tenantId, cloudId: { $ne: null } });
  const places = intunePlaces(written, byId);
  let drifted = 0;
  for (const policy of written) {
    const theirs = byId.get(policy.cloudId!);
    let drift = theirs ? null : 'Deleted in Intune';
    if (theirs) {
      try {
        drift = driftOf(cloudSettingsOf(policy), theirs, places.get(policy.id));
      } catch {
        drift = null; // a policy Intune cannot hold was never written: nothing to compare
      }
    }
    if (drift !== null) drifted++;
    policy.cloudDrift = drift;
  }
  await ctx.em.flush();
  return drifted;
}

/**
 * The enrollment attempts made upstream since the previous sync (all of them on the first), decided and the
 * blocked ones recorded after the users, groups and devices they are decided on; on a cloud with its own
 * restrictions (Intune), its configurations compared with our policies (drift). A cloud without attempts
 * (Microsoft 365: capability blockedEnrollments) is noted, as an unavailable step would be.
 */
export const enrollmentSyncStep: SyncStep = {
  name: 'device-management',
  after: ['users', 'devices'],
  async read({ cloud, tenant }) {
    const configurations = cloud.deviceManagement.enrollmentConfigurations;
    const cloudConfigurations = configurations ? (await allPages(configurations.list())).flat() : null;
    let attempts: CloudEnrollmentAttemptRecord[] = [];
    let unavailable: string | null = null;
    try {
      attempts = await allPages(cloud.deviceManagement.listEnrollmentAttempts(tenant.lastSyncedAt));
    } catch (error) {
      const unsupported = unsupportedCloudError(error);
      // Without configurations there is nothing else to read: the step is unavailable as a whole.
      if (!unsupported || !cloudConfigurations) throw error;
      unavailable = `device-management: blocked enrollment attempts not available on ${unsupported.provider ?? 'this cloud'} (${unsupported.message})`;
    }
    return async ({ ctx, tenant, now, warn }) => {
      if (unavailable) warn(unavailable);
      const counts = await recordBlockedEnrollments(ctx, tenant, attempts, now);
      if (!cloudConfigurations) return counts;
      return {
        ...counts,
        enrollmentRestrictionsDrifted: await recordDrift(ctx, tenant.id, cloudConfigurations),
      };
    };
  },
};
