import type { FeatureModule } from '../core/feature-module.js';
import { TENANT_ROUTES } from './tenant.rest.js';
import { TenantSync } from './sync-run.entity.js';
import { Tenant } from './tenant.entity.js';
import { TenantResolver } from './tenant.resolver.js';
import { tenantSyncTask } from './tenant-sync.task.js';
import { TENANT_SYNC_TASK } from './tenant.service.js';

/**
 * Customer tenants and their syncs (SPEC 4.1). A sync runs every feature's `syncStep`, which its task gets
 * from the wiring when the tasks are built (`TaskWiring`, src/tasks.ts): this folder imports no feature.
 */
export const tenantsModule: FeatureModule = {
  name: 'tenants',
  resolvers: [TenantResolver],
  entities: [Tenant, TenantSync],
  tasks: { [TENANT_SYNC_TASK]: tenantSyncTask },
  routes: { v1: TENANT_ROUTES },
  eventKinds: ['tenant.synced'],
};
