import type { FeatureModule } from '../core/feature-module.js';
import { PORTAL_ROUTES } from './portal.rest.js';
import { PortalActivityCount, PortalDirtyTenant, PortalTenantAggregate } from './portal-aggregate.entity.js';
import {
  PORTAL_AGGREGATES_DIRTY_CRON,
  PORTAL_AGGREGATES_DIRTY_TASK,
  PORTAL_AGGREGATES_FULL_CRON,
  PORTAL_AGGREGATES_FULL_TASK,
  portalAggregatesDirtyTask,
  portalAggregatesFullTask,
} from './portal-aggregates.task.js';
import { PortalResolver } from './portal.resolver.js';
import { portalSyncStep } from './portal-sync.js';

/** The MSP portal's figures across every tenant (SPEC 5.3), kept as aggregates. */
export const portalModule: FeatureModule = {
  name: 'portal',
  resolvers: [PortalResolver],
  entities: [PortalTenantAggregate],
  /** Dirty marks and activity counts, written by triggers in any organization's transaction (docs/portal.md). */
  unscopedEntities: [PortalDirtyTenant, PortalActivityCount],
  tasks: {
    [PORTAL_AGGREGATES_FULL_TASK]: portalAggregatesFullTask,
    [PORTAL_AGGREGATES_DIRTY_TASK]: portalAggregatesDirtyTask,
  },
  crons: [PORTAL_AGGREGATES_FULL_CRON, PORTAL_AGGREGATES_DIRTY_CRON],
  routes: { api: PORTAL_ROUTES },
  syncStep: portalSyncStep,
};
