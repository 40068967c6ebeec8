import type { CloudRiskLevel, CloudSignInRecord } from '../cloud/provider.js';
import type { EventSeverity } from '../core/events/domain-event.entity.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { SyncStep, SyncTenant } from '../sync/sync-step.js';
import { User } from '../users/user.entity.js';
import { allPages } from '../cloud/pages.js';

export const RISKY_SIGNIN_EVENT = 'security.risky_signin';

/** Sign-ins the provider rates medium or high are risky; low and none are ordinary. */
const SEVERITY_BY_RISK: Partial<Record<CloudRiskLevel, EventSeverity>> = { medium: 'medium', high: 'high' };

/**
 * Notes `ids` as announced for this tenant and returns those that were not yet: one statement, in the
 * transaction that records their events, so an id is announced once (a concurrent sync of the same tenant
 * waits on the key, then finds it taken). The table outlives the 30-day event history (housekeeping).
 */
const CLAIM_SIGN_INS = `
  insert into announced_sign_ins (organization_id, environment, tenant_id, sign_in_id, announced_at)
  select ?, ?, ?, ids.sign_in_id, ? from unnest(array[?]::text[]) as ids(sign_in_id)
  on conflict do nothing
  returning sign_in_id`;

async function claimSignIns(ctx: ServiceContext, tenantId: string, ids: string[]): Promise<Set<string>> {
  const rows = await ctx.em.execute<Array<{ sign_in_id: string }>>(CLAIM_SIGN_INS, [
    ctx.scope.organizationId,
    ctx.scope.environment,
    tenantId,
    ctx.clock.now(),
    ids,
  ]);
  return new Set(rows.map((row) => row.sign_in_id));
}

/**
 * Emits `security.risky_signin` for each new risky sign-in of a sync (DECISIONS "The upstream cloud"), with
 * the details of SPEC 6 (user, riskLevel, location, ipAddress) plus the sign-in's id and time, and an
 * actionUrl pointing at the user. Runs inside the sync's transaction, after users are reconciled, so the
 * events commit with the sync. Returns how many were emitted.
 */
export async function announceRiskySignIns(
  ctx: ServiceContext,
  tenant: Pick<SyncTenant, 'id' | 'eventRef'>,
  signIns: CloudSignInRecord[],
): Promise<number> {
  const risky = signIns.filter((signIn) => SEVERITY_BY_RISK[signIn.riskLevel]);
  if (risky.length === 0) return 0;
  const claimed = await claimSignIns(
    ctx,
    tenant.id,
    risky.map((signIn) => signIn.id),
  );
  // The same sign-in twice in one report is announced once too.
  const fresh = risky.filter((signIn) => claimed.delete(signIn.id));
  if (fresh.length === 0) return 0;
  const users = await ctx.em.find(
    User,
    { tenantId: tenant.id, userPrincipalName: { $in: [...new Set(fresh.map((s) => s.userPrincipalName))] } },
    { fields: ['id', 'userPrincipalName', 'deletedAt'] },
  );
  const userIdByUpn = new Map<string, string>();
  // A live user before a soft-deleted one of the same name.
  for (const user of [...users].sort((a, b) => Number(a.deletedAt !== null) - Number(b.deletedAt !== null))) {
    const upn = user.userPrincipalName.toLowerCase();
    if (!userIdByUpn.has(upn)) userIdByUpn.set(upn, user.id);
  }
  const ordered = [...fresh].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const signIn of ordered) {
    const userId = userIdByUpn.get(signIn.userPrincipalName.toLowerCase());
    await emitEvent(ctx, {
      kind: RISKY_SIGNIN_EVENT,
      severity: SEVERITY_BY_RISK[signIn.riskLevel]!,
      tenant: tenant.eventRef,
      details: {
        user: signIn.userPrincipalName,
        riskLevel: signIn.riskLevel,
        location: signIn.location,
        ipAddress: signIn.ipAddress,
        userId: userId ?? null,
        signInId: signIn.id,
        signedInAt: signIn.createdAt,
      },
      actionPath: userId ? `/tenants/${tenant.id}/users/${userId}` : `/tenants/${tenant.id}`,
    });
  }
  return ordered.length;
}

/**
 * The sign-ins recorded upstream since the previous sync (all of them on the first): counted (`newSignIns`),
 * and the new risky ones announced, after the users they name.
 */
export const riskySignInsSyncStep: SyncStep = {
  name: 'security',
  after: ['users'],
  async read({ cloud, tenant }) {
    const signIns = await allPages(cloud.directory.listSignIns(tenant.lastSyncedAt));
    return async ({ ctx, tenant }) => {
      await announceRiskySignIns(ctx, tenant, signIns);
      return { newSignIns: signIns.length };
    };
  },
};
