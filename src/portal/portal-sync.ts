import type { SyncStep } from '../sync/sync-step.js';
import { PortalAggregates } from './portal-aggregates.js';

/**
 * The last step of every tenant sync: the tenant's portal figures and health signals, recounted in the sync's
 * transaction from what the other steps just wrote. Before, a tenant onboarded or synced showed healthy, with
 * `dataAsOf` = now, until the one-minute recount found its open High alerts (issue #33 item 10).
 */
export const portalSyncStep: SyncStep = {
  name: 'portal',
  after: ['users', 'licenses', 'alerts', 'devices', 'recommendations', 'secure-score'],
  inSummary: false,
  read() {
    return Promise.resolve(async ({ ctx, tenant }) => {
      await new PortalAggregates(ctx.em, ctx.clock).recountInTransaction(tenant.id);
      return {};
    });
  },
};
