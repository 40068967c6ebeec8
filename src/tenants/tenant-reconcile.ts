import type {
  CloudContactRecord,
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudProvider,
  CloudSignInRecord,
  CloudSkuRecord,
  CloudUserRecord,
} from '../cloud/provider.js';
import { syncTenantContacts } from '../contacts/contact-sync.js';
import { NotFoundError } from '../core/errors.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import { reconcileSecurity, readSecurityUpstream, type SecuritySnapshot } from '../devices/security-sync.js';
import type { CloudSecurityControlRecord } from '../cloud/security-posture.provider.js';
import { readEnrollmentUpstream, recordBlockedEnrollments } from '../device-management/enrollment-sync.js';
import type { CloudEnrollmentAttemptRecord } from '../cloud/device-management.provider.js';
import { reconcileRecommendations } from '../recommendations/recommendation-reconcile.js';
import { announceRiskySignIns } from '../security/risky-signins.js';
import {
  reconcileGroups,
  reconcileLicenses,
  reconcileUsers,
  type DirectoryStepContext,
} from './tenant-directory-reconcile.js';
import { checkSyncConsent } from './tenant-consent.js';
import { Tenant } from './tenant.entity.js';

/** What a sync changed, by kind (e.g. usersCreated: 12); all zeros when nothing changed upstream. */
export type SyncSummary = Record<string, number>;

/** Everything a sync reads from the provider, read once before any write. */
export interface UpstreamSnapshot {
  users: CloudUserRecord[];
  skus: CloudSkuRecord[];
  groups: CloudGroupRecord[];
  assignments: CloudLicenseAssignmentRecord[];
  /**
   * Sign-ins recorded upstream since the previous sync (all of them on the first sync). The sync counts
   * them, and raises `security.risky_signin` for the new risky ones (src/security/risky-signins.ts)
   * inside its transaction.
   */
  signIns: CloudSignInRecord[];
  /** Devices, alerts and endpoint DLP (src/devices/security-sync.ts). */
  security: SecuritySnapshot;
  /** Security controls, for the recommendations (src/recommendations/recommendation-reconcile.ts). */
  securityControls: CloudSecurityControlRecord[];
  /** Enrollment attempts since the previous sync (src/device-management/enrollment-sync.ts). */
  enrollmentAttempts: CloudEnrollmentAttemptRecord[];
  /** Mail contacts (src/contacts/contact-sync.ts; also synced every 30 minutes on their own). */
  contacts: CloudContactRecord[];
}

export async function readUpstream(
  provider: CloudProvider,
  tenantExternalId: string,
  since: Date | null,
): Promise<UpstreamSnapshot> {
  const [
    users,
    skus,
    groups,
    assignments,
    signIns,
    security,
    securityControls,
    enrollmentAttempts,
    contacts,
  ] = await Promise.all([
    provider.listUsers(tenantExternalId),
    provider.listSkus(tenantExternalId),
    provider.listGroups(tenantExternalId),
    provider.listLicenseAssignments(tenantExternalId),
    provider.listSignIns(tenantExternalId, since),
    readSecurityUpstream(provider, tenantExternalId),
    provider.listSecurityControls(tenantExternalId),
    readEnrollmentUpstream(provider, tenantExternalId, since),
    provider.listContacts(tenantExternalId),
  ]);
  return {
    users,
    skus,
    groups,
    assignments,
    signIns,
    security,
    securityControls,
    enrollmentAttempts,
    contacts,
  };
}

/**
 * Reconciles one tenant from the upstream cloud provider: users, licenses and assignments, groups and
 * memberships are made to match it in one transaction, `lastSyncedAt` moves, and `tenant.synced` is
 * written to the outbox with the summary. `report` receives progress from 0 to 100; it writes on its own
 * connection, so progress is visible while the transaction is still open.
 */
export async function reconcileTenant(
  ctx: ServiceContext,
  tenantId: string,
  report: (progress: number) => Promise<void>,
): Promise<SyncSummary> {
  await report(0);
  // A fork of its own: the caller's EntityManager (holding the sync record) stays out of this
  // transaction, and an enclosing transaction (the demo seed) is joined as a savepoint.
  const work = ctx.em.fork({ keepTransactionContext: true });
  const found = await work.findOne(Tenant, { id: tenantId });
  if (!found) throw new NotFoundError('Tenant', tenantId);
  // Consent first: without the customer's grant nothing of the tenant is read (tenant-consent.ts).
  await checkSyncConsent({ ...ctx, em: work }, found);
  const snapshot = await readUpstream(ctx.provider, found.externalId, found.lastSyncedAt);
  await report(20);

  return work.transactional(async (em) => {
    const tenant = await em.findOneOrFail(Tenant, { id: tenantId });
    const step: DirectoryStepContext = {
      em,
      scope: ctx.scope,
      tenantId,
      now: ctx.clock.now(),
      actor: ctx.actor,
    };
    const users = await reconcileUsers(step, snapshot.users, (done, total) =>
      report(20 + Math.floor((40 * done) / Math.max(total, 1))),
    );
    const licenses = await reconcileLicenses(step, snapshot.skus, snapshot.assignments, users.activeUserIds);
    await report(75);
    const groups = await reconcileGroups(step, snapshot.groups, users.activeUserIds);
    await report(90);
    const security = await reconcileSecurity({ ...ctx, em }, tenant, snapshot.security, step.now);
    const enrollment = await recordBlockedEnrollments(
      { ...ctx, em },
      tenant,
      snapshot.enrollmentAttempts,
      step.now,
    );
    // Not in the summary (its GraphQL type stays as it is); the 30-minute job reports its own counts.
    await syncTenantContacts({ ...ctx, em }, tenant, snapshot.contacts);

    const summary: SyncSummary = {
      ...users.counts,
      ...licenses,
      ...groups,
      ...security,
      ...enrollment,
      newSignIns: snapshot.signIns.length,
      recommendationsChanged: await reconcileRecommendations(
        em,
        ctx.scope,
        tenantId,
        snapshot.securityControls,
        step.now,
      ),
    };
    tenant.lastSyncedAt = step.now;
    await em.flush();
    await announceRiskySignIns({ ...ctx, em }, tenant, snapshot.signIns);
    await emitEvent(
      { ...ctx, em },
      {
        kind: 'tenant.synced',
        severity: 'informational',
        tenant: tenant.eventRef,
        details: summary,
        actionPath: `/tenants/${tenant.id}`,
      },
    );
    await report(100);
    return summary;
  });
}
