import { ACTOR_FIELDS } from './actor.fields.js';
/** The GraphQL operations behind the exchange routes of SPEC 4.2 (restricted users, SPEC 2.6 and 3.3). */
const RESTRICTED_USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  userId
  userPrincipalName
  displayName
  restrictedAt
  reason
  status
  actionRequired
  sendingLimits { recipientsPerDay messagesPerMinute }
  unblockedAt
  unblockedBy ${ACTOR_FIELDS}
`;

export const LIST_RESTRICTED_USERS = /* GraphQL */ `
  query ListRestrictedUsers($tenantId: UUID!, $page: Int, $limit: Int) {
    restrictedUsers(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTRICTED_USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const RESTRICTED_USER_HISTORY = /* GraphQL */ `
  query RestrictedUserHistory($tenantId: UUID!, $page: Int, $limit: Int) {
    restrictedUserHistory(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${RESTRICTED_USER_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_RESTRICTED_USER = /* GraphQL */ `
  query GetRestrictedUser($tenantId: UUID!, $id: UUID!) {
    restrictedUser(tenantId: $tenantId, id: $id) { ${RESTRICTED_USER_FIELDS} }
  }
`;

export const UNBLOCK_RESTRICTED_USER = /* GraphQL */ `
  mutation UnblockRestrictedUser($tenantId: UUID!, $id: UUID!) {
    unblockRestrictedUser(tenantId: $tenantId, id: $id) { ${RESTRICTED_USER_FIELDS} }
  }
`;
