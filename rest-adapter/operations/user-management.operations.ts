import { ACTOR_FIELDS } from './actor.fields.js';
import { USER_FIELDS } from './users.operations.js';

/** The GraphQL operations behind /api/user-management-identity (issue #14; docs/user-management.md). */
const MANAGED_USER_FIELDS = /* GraphQL */ `
  ${USER_FIELDS}
  licenseDetails { skuId skuPartNumber name assignedAt }
  groups { id displayName }
`;

export const SEARCH_USERS = /* GraphQL */ `
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

export const GET_MANAGED_USER = /* GraphQL */ `
  query GetManagedUser($tenantId: UUID!, $id: UUID!) {
    user(tenantId: $tenantId, id: $id) { ${MANAGED_USER_FIELDS} }
  }
`;

export const CREATE_MANAGED_USER = /* GraphQL */ `
  mutation CreateManagedUser($tenantId: UUID!, $input: CreateUserInput!) {
    createUser(tenantId: $tenantId, input: $input) { ${USER_FIELDS} generatedPassword }
  }
`;

export const REPLACE_USER = /* GraphQL */ `
  mutation ReplaceUser($tenantId: UUID!, $id: UUID!, $input: ReplaceUserInput!) {
    replaceUser(tenantId: $tenantId, id: $id, input: $input) { ${MANAGED_USER_FIELDS} }
  }
`;

export const RESET_USER_PASSWORD = /* GraphQL */ `
  mutation ResetUserPassword($tenantId: UUID!, $id: UUID!, $input: ResetPasswordInput) {
    resetUserPassword(tenantId: $tenantId, id: $id, input: $input) {
      user { ${USER_FIELDS} }
      temporaryPassword
      forceChangeAtNextSignIn
      sessionsRevokedAt
    }
  }
`;

const USER_IMPORT_FIELDS = /* GraphQL */ `
  id
  tenantId
  status
  totalRows
  processedRows
  createdRows
  failedRows
  failureReason
  createdBy ${ACTOR_FIELDS}
  createdAt
  startedAt
  finishedAt
`;

export const IMPORT_USERS = /* GraphQL */ `
  mutation ImportUsers($tenantId: UUID!, $csv: String!) {
    importUsers(tenantId: $tenantId, csv: $csv) {
      operation { ${USER_IMPORT_FIELDS} }
      generatedPasswords { line userPrincipalName password }
    }
  }
`;

export const GET_USER_IMPORT = /* GraphQL */ `
  query GetUserImport($tenantId: UUID!, $id: UUID!, $page: Int, $limit: Int) {
    userImport(tenantId: $tenantId, id: $id) {
      ${USER_IMPORT_FIELDS}
      rows(page: $page, limit: $limit) {
        items { line userPrincipalName status userId error }
        pageInfo { page limit total }
      }
    }
  }
`;

const OFFBOARDING_FIELDS = /* GraphQL */ `
  id
  tenantId
  userId
  status
  options
  steps { name status startedAt finishedAt error result attempts }
  failureReason
  createdBy ${ACTOR_FIELDS}
  createdAt
  startedAt
  finishedAt
`;

export const OFFBOARD_USER = /* GraphQL */ `
  mutation OffboardUser($tenantId: UUID!, $userId: UUID!, $input: OffboardUserInput) {
    offboardUser(tenantId: $tenantId, userId: $userId, input: $input) { ${OFFBOARDING_FIELDS} }
  }
`;

export const GET_USER_OFFBOARDING = /* GraphQL */ `
  query GetUserOffboarding($tenantId: UUID!, $userId: UUID!, $id: UUID!) {
    userOffboarding(tenantId: $tenantId, userId: $userId, id: $id) { ${OFFBOARDING_FIELDS} }
  }
`;

export const RETRY_USER_OFFBOARDING = /* GraphQL */ `
  mutation RetryUserOffboarding($tenantId: UUID!, $userId: UUID!, $id: UUID!) {
    retryUserOffboarding(tenantId: $tenantId, userId: $userId, id: $id) { ${OFFBOARDING_FIELDS} }
  }
`;

export const DELETED_USER_FILES = /* GraphQL */ `
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

export const GRANT_DELETED_USER_FILE_ACCESS = /* GraphQL */ `
  mutation GrantDeletedUserFileAccess($tenantId: UUID!, $id: UUID!, $userId: UUID!) {
    grantDeletedUserFileAccess(tenantId: $tenantId, id: $id, userId: $userId) {
      userId
      grantedTo
      grantedAt
      availableUntil
    }
  }
`;
