/** The GraphQL operations behind /api/msp-portal/tenant-groups (docs/tenant-groups.md). */
const GROUP_FIELDS = 'id name description tenantIds tenantCount createdAt updatedAt';

export const LIST_TENANT_GROUPS = /* GraphQL */ `
  query ListTenantGroups($page: Int, $limit: Int) {
    tenantGroups(page: $page, limit: $limit) {
      items { ${GROUP_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_TENANT_GROUP = /* GraphQL */ `
  query GetTenantGroup($id: UUID!) {
    tenantGroup(id: $id) { ${GROUP_FIELDS} }
  }
`;

export const CREATE_TENANT_GROUP = /* GraphQL */ `
  mutation CreateTenantGroup($input: CreateTenantGroupInput!) {
    createTenantGroup(input: $input) { ${GROUP_FIELDS} }
  }
`;

export const UPDATE_TENANT_GROUP = /* GraphQL */ `
  mutation UpdateTenantGroup($id: UUID!, $input: UpdateTenantGroupInput!) {
    updateTenantGroup(id: $id, input: $input) { ${GROUP_FIELDS} }
  }
`;

export const DELETE_TENANT_GROUP = /* GraphQL */ `
  mutation DeleteTenantGroup($id: UUID!) {
    deleteTenantGroup(id: $id) { ${GROUP_FIELDS} }
  }
`;

export const ADD_TENANT_GROUP_MEMBERS = /* GraphQL */ `
  mutation AddTenantGroupMembers($id: UUID!, $tenantIds: [UUID!]!) {
    addTenantGroupMembers(id: $id, tenantIds: $tenantIds) { ${GROUP_FIELDS} }
  }
`;

export const REMOVE_TENANT_GROUP_MEMBERS = /* GraphQL */ `
  mutation RemoveTenantGroupMembers($id: UUID!, $tenantIds: [UUID!]!) {
    removeTenantGroupMembers(id: $id, tenantIds: $tenantIds) { ${GROUP_FIELDS} }
  }
`;

export const SEARCH_USERS_ACROSS_TENANTS = /* GraphQL */ `
  query SearchUsersAcrossTenants($q: String!, $tenantGroupId: UUID, $limit: Int, $after: String) {
    searchUsersAcrossTenants(q: $q, tenantGroupId: $tenantGroupId, limit: $limit, after: $after) {
      items {
        id
        tenantId
        tenantName
        displayName
        userPrincipalName
        email
        accountStatus
        userType
      }
      pageInfo {
        limit
        hasMore
        nextCursor
      }
    }
  }
`;
