import { USER_FIELDS } from './users.operations.js';

/** The GraphQL operations behind the identity routes of SPEC 4.2 (deleted users, SPEC 2.6 and 3.4). */
const DELETED_USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  userPrincipalName
  userType
  deletedAt
  deletedBy
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
export const RESTORE_USER = /* GraphQL */ `
  mutation RestoreUser($tenantId: UUID!, $id: UUID!, $input: RestoreUserInput) {
    restoreUser(tenantId: $tenantId, id: $id, input: $input) { ${USER_FIELDS} }
  }
`;

export const PERMANENTLY_DELETE_USER = /* GraphQL */ `
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
