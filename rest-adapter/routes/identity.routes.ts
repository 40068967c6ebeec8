import {
  LIST_DELETED_USERS,
  PERMANENTLY_DELETE_USER,
  RESTORE_USER,
} from '../operations/identity.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Identity (SPEC 4.2): the deleted users of the tenant named by X-Tenant-Id (or ?tenantId=), SPEC 3.4.
 * Reading needs `read:users`, restoring `write:users`, permanent deletion an Admin key (or `write:users`
 * on an access token).
 */
export const IDENTITY_ROUTES: RouteDefinition[] = [
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
    summary:
      'restore a deleted user within 30 days {userPrincipalName?}; 409 after the window, for an active user, or when its UPN was reused and no new one is given',
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
