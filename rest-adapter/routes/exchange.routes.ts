import {
  GET_RESTRICTED_USER,
  LIST_RESTRICTED_USERS,
  RESTRICTED_USER_HISTORY,
  UNBLOCK_RESTRICTED_USER,
} from '../operations/exchange.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Exchange (SPEC 4.2) in the tenant named by X-Tenant-Id (or ?tenantId=): restricted users (SPEC 2.6, 3.3),
 * read from the upstream cloud on every list. Reading needs `read:tenants`, unblocking `write:tenants`.
 * The history route comes before `/:id` so "history" is never taken for an id.
 */
export const EXCHANGE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/exchange/restricted-users',
    operation: LIST_RESTRICTED_USERS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary:
      'list users currently blocked from sending mail, newest restriction first: user, restrictedAt, reason, status, actionRequired',
  },
  {
    method: 'GET',
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
    path: '/exchange/restricted-users/:id/unblock',
    operation: UNBLOCK_RESTRICTED_USER,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'let the user send mail again (Restricted → Unblocked); 409 when already Unblocked',
  },
];
