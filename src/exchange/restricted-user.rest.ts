import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';

const RESTRICTED_USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  userId
  userPrincipalName
  displayName
  restrictedAt
  reason
  status
  actionRequired
  sendingLimits { recipientsPerDay messagesPerMinute }
  unblockedAt
  unblockedBy ${ACTOR_FIELDS}
`;

const LIST_RESTRICTED_USERS = /* GraphQL */ `
  query ListRestrictedUsers($tenantId: UUID!, $page: Int, $limit: Int) {
    restrictedUsers(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTRICTED_USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const RESTRICTED_USER_HISTORY = /* GraphQL */ `
  query RestrictedUserHistory($tenantId: UUID!, $page: Int, $limit: Int) {
    restrictedUserHistory(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTRICTED_USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const GET_RESTRICTED_USER = /* GraphQL */ `
  query GetRestrictedUser($tenantId: UUID!, $id: UUID!) {
    restrictedUser(tenantId: $tenantId, id: $id) { ${RESTRICTED_USER_FIELDS} }
  }
`;

const UNBLOCK_RESTRICTED_USER = /* GraphQL */ `
  mutation UnblockRestrictedUser($tenantId: UUID!, $id: UUID!) {
    unblockRestrictedUser(tenantId: $tenantId, id: $id) { ${RESTRICTED_USER_FIELDS} }
  }
`;

/**
 * Exchange (SPEC 4.2) in the tenant named by X-Tenant-Id (or ?tenantId=): restricted users (SPEC 2.6, 3.3),
 * read from the upstream cloud on every list. Reading needs `read:tenants`, unblocking `write:tenants`.
 * The history route comes before `/:id` so "history" is never taken for an id.
 */
export const RESTRICTED_USER_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    reachesCloud: true,
    path: '/exchange/restricted-users',
    operation: LIST_RESTRICTED_USERS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary:
      'list users currently blocked from sending mail, newest restriction first: user, restrictedAt, reason, status, actionRequired',
  },
  {
    method: 'GET',
    reachesCloud: true,
    path: '/exchange/restricted-users/history',
    operation: RESTRICTED_USER_HISTORY,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'every restriction, current and unblocked, newest restriction first',
  },
  {
    method: 'GET',
    path: '/exchange/restricted-users/:id',
    operation: GET_RESTRICTED_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'one restriction',
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/exchange/restricted-users/:id/unblock',
    operation: UNBLOCK_RESTRICTED_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'let the user send mail again (Restricted → Unblocked); 409 when already Unblocked',
  },
];
