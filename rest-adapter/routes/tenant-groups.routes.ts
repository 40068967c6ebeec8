import {
  ADD_TENANT_GROUP_MEMBERS,
  CREATE_TENANT_GROUP,
  DELETE_TENANT_GROUP,
  GET_TENANT_GROUP,
  LIST_TENANT_GROUPS,
  REMOVE_TENANT_GROUP_MEMBERS,
  SEARCH_USERS_ACROSS_TENANTS,
  UPDATE_TENANT_GROUP,
} from '../operations/tenant-groups.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

const ID = { id: 'id' };

/**
 * Our REST extensions of the provider portal (docs/tenant-groups.md, docs/user-directory.md): tenant groups
 * (read:tenants reads, write:tenants changes) and the cross-tenant user search (read:users). Across the
 * organization's tenants, so no X-Tenant-Id.
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
  {
    method: 'GET',
    path: '/msp-portal/users/search',
    operation: SEARCH_USERS_ACROSS_TENANTS,
    query: {
      q: { type: 'string' },
      tenantGroupId: { type: 'string' },
      limit: { type: 'int' },
      after: { type: 'string' },
    },
    summary:
      'users of every tenant whose name, UPN or mail contains q (3+ characters, case and accents ignored); ?tenantGroupId, keyset ?after (read:users)',
  },
];
