import {
  CREATE_MANAGED_USER,
  DELETED_USER_FILES,
  GRANT_DELETED_USER_FILE_ACCESS,
  GET_MANAGED_USER,
  GET_USER_IMPORT,
  GET_USER_OFFBOARDING,
  IMPORT_USERS,
  OFFBOARD_USER,
  RETRY_USER_OFFBOARDING,
  REPLACE_USER,
  RESET_USER_PASSWORD,
  SEARCH_USERS,
} from '../operations/user-management.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

const BASE = '/user-management-identity/users';

/**
 * The user-management workspace (SPEC 4.2; issue #14; docs/user-management.md) in the tenant named by
 * X-Tenant-Id. Reading needs `read:users`, everything else `write:users`. The /users/bulk routes come
 * before /users/:userId.
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
      lastSignInBefore: { type: 'string' },
      lastSignInAfter: { type: 'string' },
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
    method: 'POST',
    path: `${BASE}/bulk`,
    operation: IMPORT_USERS,
    tenant: 'tenantId',
    body: 'spread',
    csvBody: 'csv',
    status: 202,
    summary:
      'bulk user creation from CSV (Content-Type: text/csv up to 10 MiB, or JSON {csv}): every row is checked first (400 listing line, column and problem, nothing written); 202 with the queued operation and the generated passwords, shown once',
  },
  {
    method: 'GET',
    path: `${BASE}/bulk/:operationId`,
    operation: GET_USER_IMPORT,
    tenant: 'tenantId',
    params: { operationId: 'id' },
    query: PAGE_QUERY,
    summary:
      'a bulk creation: status (Queued, Running, Completed, CompletedWithErrors, Failed), counters and a page of rows with their outcome',
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
  {
    method: 'POST',
    path: `${BASE}/:userId/offboard`,
    operation: OFFBOARD_USER,
    tenant: 'tenantId',
    params: { userId: 'userId' },
    body: 'input',
    status: 202,
    summary:
      'start the offboarding job {convertMailboxToShared? (true), delegateMailboxTo?, autoReplyMessage?, transferFilesTo? ("manager" or a user id), removeLicenses? (true), removeFromGroups? (true), deleteUser? (false, Admin key)}; 409 while one runs',
  },
  {
    method: 'GET',
    path: `${BASE}/:userId/offboard/:offboardingId`,
    operation: GET_USER_OFFBOARDING,
    tenant: 'tenantId',
    params: { userId: 'userId', offboardingId: 'id' },
    summary: 'an offboarding with each step’s status, times, attempts, result and error',
  },
  {
    method: 'POST',
    path: `${BASE}/:userId/offboard/:offboardingId/retry`,
    operation: RETRY_USER_OFFBOARDING,
    tenant: 'tenantId',
    params: { userId: 'userId', offboardingId: 'id' },
    status: 202,
    summary:
      'run a Failed offboarding again from its failed step (finished steps are not repeated); 409 unless Failed',
  },
  {
    method: 'GET',
    path: '/identity/users/:id/onedrive',
    operation: DELETED_USER_FILES,
    tenant: 'tenantId',
    params: { id: 'id' },
    query: PAGE_QUERY,
    conflictOnRead: true,
    summary:
      "a deleted user's preserved personal files (name, path, sizeBytes, modifiedAt), by path; within 30 days of the deletion; 404 after, 409 for an active user",
  },
  {
    method: 'POST',
    path: '/identity/users/:id/onedrive/access',
    operation: GRANT_DELETED_USER_FILE_ACCESS,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'spread',
    summary:
      "extension: give an active user {userId} access to a deleted user's personal files until they are purged",
  },
];
