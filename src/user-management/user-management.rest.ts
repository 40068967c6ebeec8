import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { USER_FIELDS } from '../users/user.fields.js';

const SEARCH_USERS = /* GraphQL */ `
  query SearchUsers(
    $tenantId: UUID!
    $search: String
    $searchMode: UserSearchMode
    $accountStatus: AccountStatus
    $mfaStatus: MfaStatus
    $userType: UserType
    $source: UserSource
    $department: String
    $hasLicense: Boolean
    $skuId: UUID
    $isServiceAccount: Boolean
    $lastSignInBefore: DateTime
    $lastSignInAfter: DateTime
    $sortBy: UserSortField
    $sortOrder: SortOrder
    $page: Int
    $limit: Int
  ) {
    searchUsers(
      tenantId: $tenantId
      search: $search
      searchMode: $searchMode
      accountStatus: $accountStatus
      mfaStatus: $mfaStatus
      userType: $userType
      source: $source
      department: $department
      hasLicense: $hasLicense
      skuId: $skuId
      isServiceAccount: $isServiceAccount
      lastSignInBefore: $lastSignInBefore
      lastSignInAfter: $lastSignInAfter
      sortBy: $sortBy
      sortOrder: $sortOrder
      page: $page
      limit: $limit
    ) {
      items { ${USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_MANAGED_USER = /* GraphQL */ `
  mutation CreateManagedUser($tenantId: UUID!, $input: CreateUserInput!) {
    createUser(tenantId: $tenantId, input: $input) { ${USER_FIELDS} generatedPassword }
  }
`;

const MANAGED_USER_FIELDS = /* GraphQL */ `
  ${USER_FIELDS}
  licenseDetails { skuId skuPartNumber name assignedAt }
  licenseCount
  groups { id displayName }
  groupCount
`;

const GET_MANAGED_USER = /* GraphQL */ `
  query GetManagedUser($tenantId: UUID!, $id: UUID!) {
    user(tenantId: $tenantId, id: $id) { ${MANAGED_USER_FIELDS} }
  }
`;

const REPLACE_USER = /* GraphQL */ `
  mutation ReplaceUser($tenantId: UUID!, $id: UUID!, $input: ReplaceUserInput!) {
    replaceUser(tenantId: $tenantId, id: $id, input: $input) { ${MANAGED_USER_FIELDS} }
  }
`;

const RESET_USER_PASSWORD = /* GraphQL */ `
  mutation ResetUserPassword($tenantId: UUID!, $id: UUID!, $input: ResetPasswordInput) {
    resetUserPassword(tenantId: $tenantId, id: $id, input: $input) {
      user { ${USER_FIELDS} }
      temporaryPassword
      forceChangeAtNextSignIn
      sessionsRevokedAt
    }
  }
`;

const BASE = '/user-management-identity/users';

/**
 * The user-management workspace (SPEC 4.2; docs/user-management.md) in the tenant named by X-Tenant-Id: the user
 * list, creation, profile, replacement and password reset. Reading needs `read:users`, everything else
 * `write:users`.
 */
export const USER_MANAGEMENT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: BASE,
    operation: SEARCH_USERS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      search: { type: 'string' },
      searchMode: { type: 'string' },
      accountStatus: { type: 'string' },
      mfaStatus: { type: 'string' },
      userType: { type: 'string' },
      source: { type: 'string' },
      department: { type: 'string' },
      hasLicense: { type: 'boolean' },
      skuId: { type: 'string' },
      isServiceAccount: { type: 'boolean' },
      lastSignInBefore: { type: 'dateTime' },
      lastSignInAfter: { type: 'dateTime' },
      sortBy: { type: 'string' },
      sortOrder: { type: 'string' },
    },
    summary:
      'list users with filters (accountStatus, mfaStatus, userType, source, department, hasLicense, skuId, isServiceAccount, lastSignInBefore/After), ?search= over display name, UPN and mail (searchMode=contains|prefix), sortBy=displayName|createdAt|lastSignInAt, sortOrder=asc|desc',
  },
  {
    method: 'POST',
    path: BASE,
    operation: CREATE_MANAGED_USER,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary: 'create a user: the same body, rules and answers as POST /v1/tenants/:id/users',
  },
  {
    method: 'GET',
    path: `${BASE}/:userId`,
    operation: GET_MANAGED_USER,
    tenant: 'tenantId',
    params: { userId: 'id' },
    summary: 'user details with licenseDetails (SKU names) and groups',
  },
  {
    method: 'PUT',
    path: `${BASE}/:userId`,
    operation: REPLACE_USER,
    tenant: 'tenantId',
    params: { userId: 'id' },
    body: 'input',
    summary:
      'replace the editable profile (firstName, lastName, userPrincipalName required; optional fields left out are cleared; synced users: read-only fields may only be sent unchanged)',
  },
  {
    method: 'POST',
    path: `${BASE}/:userId/reset-password`,
    operation: RESET_USER_PASSWORD,
    tenant: 'tenantId',
    params: { userId: 'id' },
    body: 'input',
    summary:
      'reset the password {password?, forceChangeAtNextSignIn? (default true)}: generated when left out and returned once; sessions revoked; 409 for deleted or synced users',
  },
];
