import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const TENANT_FIELDS = /* GraphQL */ `
  id
  name
  domain
  domains
  status
  health
  lastSyncedAt
  createdAt
  cloudPermissions {
    checkedAt
    grantedPermissions
    missingPermissions
    disabledCapabilities { capability missingPermissions }
  }
`;

const LIST_TENANTS = /* GraphQL */ `
  query ListTenants($page: Int, $limit: Int, $tenantGroupId: UUID) {
    tenants(page: $page, limit: $limit, tenantGroupId: $tenantGroupId) {
      items { ${TENANT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const GET_TENANT = /* GraphQL */ `
  query GetTenant($id: UUID!) {
    tenant(id: $id) { ${TENANT_FIELDS} }
  }
`;

const SYNC_FIELDS = /* GraphQL */ `
  id
  tenantId
  status
  progress
  summary
  error
  warnings
  createdAt
  startedAt
  finishedAt
`;

const SYNC_TENANT = /* GraphQL */ `
  mutation SyncTenant($id: UUID!) {
    syncTenant(id: $id) { ${SYNC_FIELDS} }
  }
`;

const GET_TENANT_SYNC = /* GraphQL */ `
  query GetTenantSync($tenantId: UUID!, $id: UUID!) {
    tenantSync(tenantId: $tenantId, id: $id) { ${SYNC_FIELDS} }
  }
`;

const LIST_AVAILABLE_TENANTS = /* GraphQL */ `
  query ListAvailableTenants($limit: Int, $after: String) {
    availableTenants(limit: $limit, after: $after) {
      items {
        externalId
        displayName
        tenantId
        status
      }
      pageInfo {
        limit
        hasMore
        nextCursor
      }
    }
  }
`;

export const TENANT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/available-tenants',
    operation: LIST_AVAILABLE_TENANTS,
    query: { limit: { type: 'int' }, after: { type: 'string' } },
    summary:
      'customer tenants that grant this organization delegated access, with tenantId once onboarded and status (Available, Onboarded, Onboarded in other environment, Administered elsewhere); keyset ?after (our extension)',
  },
  {
    method: 'GET',
    path: '/tenants',
    operation: LIST_TENANTS,
    query: { ...PAGE_QUERY, tenantGroupId: { type: 'string' } },
    summary: "list tenants, newest first; ?tenantGroupId= keeps a tenant group's members",
  },
  {
    method: 'GET',
    path: '/tenants/:id',
    operation: GET_TENANT,
    params: { id: 'id' },
    summary: 'tenant details',
  },
  {
    method: 'POST',
    path: '/tenants/:id/sync',
    operation: SYNC_TENANT,
    params: { id: 'id' },
    status: 202,
    summary: 'trigger tenant sync (202 with the sync job)',
  },
  {
    method: 'GET',
    path: '/tenants/:id/syncs/:syncId',
    operation: GET_TENANT_SYNC,
    params: { id: 'tenantId', syncId: 'id' },
    summary: 'sync job status and progress (extension)',
  },
];
