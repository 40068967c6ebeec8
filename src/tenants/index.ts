import type { FeatureModule } from '../core/feature-module.js';
import { TENANT_ROUTES } from './tenant.rest.js';
import type { SyncStep } from '../sync/sync-step.js';
import { TenantSync } from './sync-run.entity.js';
import { Tenant } from './tenant.entity.js';
import { TenantResolver } from './tenant.resolver.js';
import { tenantSyncTask } from './tenant-sync.task.js';
import { TENANT_SYNC_TASK } from './tenant.service.js';

/**
 * Customer tenants and their syncs (SPEC 4.1). A sync runs the steps `syncSteps` gives when it runs: every
 * feature's `syncStep`, from the feature list (src/features.ts), which this folder does not import.
 */
export function tenantsModule(syncSteps: () => readonly SyncStep[]): FeatureModule {
  return {
    name: 'tenants',
    resolvers: [TenantResolver],
    entities: [Tenant, TenantSync],
    tasks: { [TENANT_SYNC_TASK]: tenantSyncTask(syncSteps) },
    routes: { v1: TENANT_ROUTES },
    eventKinds: ['tenant.synced'],
  };
}
