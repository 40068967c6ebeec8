import { ACTOR_FIELDS } from './actor.fields.js';
/** The GraphQL operations behind the user routes of SPEC 4.1 (wire names: DECISIONS "Wire names of the core records"). */
export const USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  firstName
  lastName
  userPrincipalName
  jobTitle
  department
  companyName
  officeLocation
  businessPhone
  mobilePhone
  employeeId
  employeeType
  managerId
  usageLocation
  accountStatus
  mfaStatus
  userType
  source
  isServiceAccount
  licenses
  lastSignInAt
  createdAt
`;

export const LIST_USERS = /* GraphQL */ `
  query ListUsers($tenantId: UUID!, $page: Int, $limit: Int) {
    users(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_USER = /* GraphQL */ `
  query GetUser($tenantId: UUID!, $id: UUID!) {
    user(tenantId: $tenantId, id: $id) { ${USER_FIELDS} }
  }
`;

/** The one response that carries `generatedPassword` (when the password was generated). */
export const CREATE_USER = /* GraphQL */ `
  mutation CreateUser($tenantId: UUID!, $input: CreateUserInput!) {
    createUser(tenantId: $tenantId, input: $input) { ${USER_FIELDS} generatedPassword }
  }
`;

export const UPDATE_USER = /* GraphQL */ `
  mutation UpdateUser($tenantId: UUID!, $id: UUID!, $input: UpdateUserInput!) {
    updateUser(tenantId: $tenantId, id: $id, input: $input) { ${USER_FIELDS} }
  }
`;

/** The deleted user, with when and by whom it was deleted. */
export const DELETE_USER = /* GraphQL */ `
  mutation DeleteUser($tenantId: UUID!, $id: UUID!) {
    deleteUser(tenantId: $tenantId, id: $id) { ${USER_FIELDS} deletedAt deletedBy ${ACTOR_FIELDS} }
  }
`;
