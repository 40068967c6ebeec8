import type { FeatureModule } from '../core/feature-module.js';
import { TENANT_GROUP_ROUTES } from './tenant-group.rest.js';
import { TenantGroup, TenantGroupMember } from './tenant-group.entity.js';
import { TenantGroupResolver } from './tenant-group.resolver.js';

/** Named groups of tenants for the MSP portal (docs/tenant-groups.md). */
export const tenantGroupsModule: FeatureModule = {
  name: 'tenant-groups',
  resolvers: [TenantGroupResolver],
  entities: [TenantGroup, TenantGroupMember],
  routes: { api: TENANT_GROUP_ROUTES },
};
