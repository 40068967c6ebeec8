import { type RouteDefinition } from '../../rest-adapter/route.js';
import { MIN_SEARCH_LENGTH } from './user-directory.types.js';

const SEARCH_USERS_ACROSS_TENANTS = /* GraphQL */ `
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

/**
 * The cross-tenant user search, our REST extension of the provider portal (docs/user-directory.md): across the
 * organization's tenants, so no X-Tenant-Id; needs `read:users`.
 */
export const USER_DIRECTORY_ROUTES: RouteDefinition[] = [
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
    summary: `users of every tenant whose name, UPN or mail contains q (${MIN_SEARCH_LENGTH}+ characters, case and accents ignored); ?tenantGroupId, keyset ?after (read:users)`,
  },
];
