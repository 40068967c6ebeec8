import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { RECOVERY_WINDOW_DAYS } from '../users/deleted-user.types.js';

const DELETED_USER_FILES = /* GraphQL */ `
  query DeletedUserFiles($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    deletedUserFiles(tenantId: $tenantId, id: $id, page: $page, limit: $limit) {
      items {
        id
        name
        path
        sizeBytes
        modifiedAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

const GRANT_DELETED_USER_FILE_ACCESS = /* GraphQL */ `
  mutation GrantDeletedUserFileAccess($tenantId: UUID!, $id: UUID!, $userId: UUID!) {
    grantDeletedUserFileAccess(tenantId: $tenantId, id: $id, userId: $userId) {
      userId
      grantedTo
      grantedAt
      availableUntil
    }
  }
`;

/**
 * A deleted user's OneDrive (docs/user-management.md) in the tenant named by X-Tenant-Id: reading the files needs
 * `read:users`, granting access `write:users`.
 */
export const ONEDRIVE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    reachesCloud: true,
    path: '/identity/users/:id/onedrive',
    operation: DELETED_USER_FILES,
    tenant: 'tenantId',
    params: { id: 'id' },
    query: PAGE_QUERY,
    conflictOnRead: true,
    summary: `a deleted user's preserved personal files (name, path, sizeBytes, modifiedAt), by path; within ${RECOVERY_WINDOW_DAYS} days of the deletion; 404 after, 409 for an active user`,
  },
  {
    method: 'POST',
    reachesCloud: true,
    path: '/identity/users/:id/onedrive/access',
    operation: GRANT_DELETED_USER_FILE_ACCESS,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'spread',
    summary:
      "extension: give an active user {userId} access to a deleted user's personal files until they are purged",
  },
];
