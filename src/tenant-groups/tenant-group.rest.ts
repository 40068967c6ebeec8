import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const GROUP_FIELDS = 'id name description tenantIds tenantCount createdAt updatedAt';

const LIST_TENANT_GROUPS = /* GraphQL */ `
  query ListTenantGroups($page: Int, $limit: Int) {
    tenantGroups(page: $page, limit: $limit) {
      items { ${GROUP_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_TENANT_GROUP = /* GraphQL */ `
  mutation CreateTenantGroup($input: CreateTenantGroupInput!) {
    createTenantGroup(input: $input) { ${GROUP_FIELDS} }
  }
`;

const GET_TENANT_GROUP = /* GraphQL */ `
  query GetTenantGroup($id: UUID!) {
    tenantGroup(id: $id) { ${GROUP_FIELDS} }
  }
`;

const UPDATE_TENANT_GROUP = /* GraphQL */ `
  mutation UpdateTenantGroup($id: UUID!, $input: UpdateTenantGroupInput!) {
    updateTenantGroup(id: $id, input: $input) { ${GROUP_FIELDS} }
  }
`;

const DELETE_TENANT_GROUP = /* GraphQL */ `
  mutation DeleteTenantGroup($id: UUID!) {
    deleteTenantGroup(id: $id) { ${GROUP_FIELDS} }
  }
`;

const ADD_TENANT_GROUP_MEMBERS = /* GraphQL */ `
  mutation AddTenantGroupMembers($id: UUID!, $tenantIds: [UUID!]!) {
    addTenantGroupMembers(id: $id, tenantIds: $tenantIds) { ${GROUP_FIELDS} }
  }
`;

const REMOVE_TENANT_GROUP_MEMBERS = /* GraphQL */ `
  mutation RemoveTenantGroupMembers($id: UUID!, $tenantIds: [UUID!]!) {
    removeTenantGroupMembers(id: $id, tenantIds: $tenantIds) { ${GROUP_FIELDS} }
  }
`;

const ID = { id: 'id' };

/**
 * Tenant groups, our REST extension of the provider portal (docs/tenant-groups.md): across the organization's
 * tenants, so no X-Tenant-Id; `read:tenants` reads, `write:tenants` changes.
 */
export const TENANT_GROUP_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/msp-portal/tenant-groups',
    operation: LIST_TENANT_GROUPS,
    query: PAGE_QUERY,
    summary: 'list tenant groups, newest first (read:tenants)',
  },
  {
    method: 'POST',
    path: '/msp-portal/tenant-groups',
    operation: CREATE_TENANT_GROUP,
    body: 'input',
    status: 201,
    summary:
      'create a tenant group {name, description?, tenantIds?}; 409 when the name is taken (write:tenants)',
  },
  {
    method: 'GET',
    path: '/msp-portal/tenant-groups/:id',
    operation: GET_TENANT_GROUP,
    params: ID,
    summary: 'one tenant group with its member tenant ids (read:tenants)',
  },
  {
    method: 'PATCH',
    path: '/msp-portal/tenant-groups/:id',
    operation: UPDATE_TENANT_GROUP,
    params: ID,
    body: 'input',
    summary: 'rename or re-describe a tenant group (write:tenants)',
  },
  {
    method: 'DELETE',
    path: '/msp-portal/tenant-groups/:id',
    operation: DELETE_TENANT_GROUP,
    params: ID,
    summary: 'delete a tenant group; its tenants are untouched (write:tenants)',
  },
  {
    method: 'POST',
    path: '/msp-portal/tenant-groups/:id/members',
    operation: ADD_TENANT_GROUP_MEMBERS,
    params: ID,
    body: 'spread',
    summary: 'add tenants {tenantIds} to a group (write:tenants)',
  },
  {
    method: 'DELETE',
    path: '/msp-portal/tenant-groups/:id/members',
    operation: REMOVE_TENANT_GROUP_MEMBERS,
    params: ID,
    body: 'spread',
    summary: 'remove tenants {tenantIds} from a group (write:tenants)',
  },
];
