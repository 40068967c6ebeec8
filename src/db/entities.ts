import { ApiKey } from '../api-keys/api-key.entity.js';
import { SimulatedCloudObject, SimulatedCloudTenant } from '../cloud/simulated/simulated-cloud.entity.js';
import { DomainEvent } from '../core/events/domain-event.entity.js';
import { LicenseAssignment, TenantLicense } from '../licenses/license.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { TenantSync } from '../tenants/sync-run.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Group, GroupMembership } from '../users/group.entity.js';
import { User } from '../users/user.entity.js';

/** Entities that belong to an organization and environment; the scope filter applies to each. */
export const SCOPED_ENTITIES = [
  ApiKey,
  Tenant,
  TenantSync,
  User,
  Group,
  GroupMembership,
  TenantLicense,
  LicenseAssignment,
  DomainEvent,
];

export const ALL_ENTITIES = [Organization, SimulatedCloudTenant, SimulatedCloudObject, ...SCOPED_ENTITIES];
