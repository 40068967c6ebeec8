/** The GraphQL operations behind the tenant routes of SPEC 4.1. */
const TENANT_FIELDS = /* GraphQL */ `
  id
  name
  domain
  domains
  status
  health
  lastSyncedAt
  createdAt
`;

const SYNC_FIELDS = /* GraphQL */ `
  id
  tenantId
  status
  progress
  summary
  error
  createdAt
  startedAt
  finishedAt
`;

export const LIST_TENANTS = /* GraphQL */ `
  query ListTenants($page: Int, $limit: Int, $tenantGroupId: UUID) {
    tenants(page: $page, limit: $limit, tenantGroupId: $tenantGroupId) {
      items { ${TENANT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_TENANT = /* GraphQL */ `
  query GetTenant($id: UUID!) {
    tenant(id: $id) { ${TENANT_FIELDS} }
  }
`;

export const SYNC_TENANT = /* GraphQL */ `
  mutation SyncTenant($id: UUID!) {
    syncTenant(id: $id) { ${SYNC_FIELDS} }
  }
`;

export const GET_TENANT_SYNC = /* GraphQL */ `
  query GetTenantSync($tenantId: UUID!, $id: UUID!) {
    tenantSync(tenantId: $tenantId, id: $id) { ${SYNC_FIELDS} }
  }
`;
