import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { RECOVERY_WINDOW_DAYS } from './deleted-user.types.js';
import { USER_FIELDS } from './user.fields.js';

const DELETED_USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  userPrincipalName
  userType
  deletedAt
  deletedBy ${ACTOR_FIELDS}
  daysRemaining
  permanentDeletionAt
  hadLicenses
`;

export const LIST_DELETED_USERS = /* GraphQL */ `
  query ListDeletedUsers($tenantId: UUID!, $page: Int, $limit: Int) {
    deletedUsers(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${DELETED_USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

/** The restored user, as the user routes show it. */
const RESTORE_USER = /* GraphQL */ `
  mutation RestoreUser($tenantId: UUID!, $id: UUID!, $input: RestoreUserInput) {
    restoreUser(tenantId: $tenantId, id: $id, input: $input) { ${USER_FIELDS} }
  }
`;

const PERMANENTLY_DELETE_USER = /* GraphQL */ `
  mutation PermanentlyDeleteUser($tenantId: UUID!, $id: UUID!) {
    permanentlyDeleteUser(tenantId: $tenantId, id: $id) {
      id
      tenantId
      displayName
      userPrincipalName
      deletedAt
      purgedAt
    }
  }
`;

/**
 * Deleted users (SPEC 3.4; 4.2 identity) in the tenant named by X-Tenant-Id (or ?tenantId=). Reading needs
 * `read:users`, restoring `write:users`, permanent deletion an Admin key (or `write:users` on an access token).
 * `/users/deleted` is a fixed segment served before `/users/:id`.
 */
export const DELETED_USER_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/identity/users/deleted',
    operation: LIST_DELETED_USERS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary:
      'list deleted users, newest deletion first: displayName, userPrincipalName, userType, deletedAt, deletedBy, daysRemaining, hadLicenses',
  },
  {
    method: 'POST',
    path: '/identity/users/:id/restore',
    operation: RESTORE_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    summary: `restore a deleted user within ${RECOVERY_WINDOW_DAYS} days {userPrincipalName?}; 409 after the window, for an active user, or when its UPN was reused and no new one is given`,
  },
  {
    method: 'DELETE',
    path: '/identity/users/:id/permanent',
    operation: PERMANENTLY_DELETE_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'permanently delete a deleted user (irreversible; Admin key); 409 for an active user',
  },
];
