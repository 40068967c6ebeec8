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

/** Guests (SPEC 2.6 "Guest user", 3.3, 4.2). */
const GUEST_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  email
  userPrincipalName
  userType
  source
  invitationStatus
  accountStatus
  createdAt
  lastSignInAt
  invitedBy
  invitedAt
  invitationSentAt
  invitationAcceptedAt
`;

export const LIST_GUESTS = /* GraphQL */ `
  query ListGuests(
    $tenantId: UUID!
    $type: IdentityUserListType!
    $invitationStatus: GuestInvitationStatus
    $page: Int
    $limit: Int
  ) {
    guestUsers(
      tenantId: $tenantId
      type: $type
      invitationStatus: $invitationStatus
      page: $page
      limit: $limit
    ) {
      items { ${GUEST_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const INVITE_GUEST = /* GraphQL */ `
  mutation InviteGuest($tenantId: UUID!, $input: InviteGuestInput!) {
    inviteGuest(tenantId: $tenantId, input: $input) { ${GUEST_FIELDS} }
  }
`;

export const RESEND_GUEST_INVITATION = /* GraphQL */ `
  mutation ResendGuestInvitation($tenantId: UUID!, $id: UUID!) {
    resendGuestInvitation(tenantId: $tenantId, id: $id) { ${GUEST_FIELDS} }
  }
`;

export const LIST_STALE_GUESTS = /* GraphQL */ `
  query ListStaleGuests($tenantId: UUID!, $page: Int, $limit: Int) {
    staleGuests(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${GUEST_FIELDS} reason inactiveSince daysInactive }
      pageInfo { page limit total }
    }
  }
`;

export const REMOVE_GUEST = /* GraphQL */ `
  mutation RemoveGuest($tenantId: UUID!, $id: UUID!) {
    removeGuest(tenantId: $tenantId, id: $id) { ${GUEST_FIELDS} deletedAt }
  }
`;
