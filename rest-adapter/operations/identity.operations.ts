import { ACTOR_FIELDS } from './actor.fields.js';
import { USER_FIELDS } from './users.operations.js';

/** The GraphQL operations behind the identity routes of SPEC 4.2 (deleted users, SPEC 2.6 and 3.4). */
const DELETED_USER_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  userPrincipalName
  userType
  deletedAt
  deletedBy ${ACTOR_FIELDS}
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
  invitedBy ${ACTOR_FIELDS}
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

/** Mail contacts (SPEC 2.6 "Contact", 4.2). */
const CONTACT_FIELDS = /* GraphQL */ `
  id
  tenantId
  displayName
  firstName
  lastName
  email
  company
  jobTitle
  businessPhone
  mobilePhone
  department
  showInAddressList
  galVisibility
  manager
  street
  city
  state
  postalCode
  country
  notes
  emailAliases
  source
  createdAt
  updatedAt
`;

export const LIST_CONTACTS = /* GraphQL */ `
  query ListContacts($tenantId: UUID!, $search: String, $page: Int, $limit: Int) {
    contacts(tenantId: $tenantId, search: $search, page: $page, limit: $limit) {
      items { ${CONTACT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_CONTACT = /* GraphQL */ `
  mutation CreateContact($tenantId: UUID!, $input: ContactInput!) {
    createContact(tenantId: $tenantId, input: $input) { ${CONTACT_FIELDS} }
  }
`;

export const UPDATE_CONTACT = /* GraphQL */ `
  mutation UpdateContact($tenantId: UUID!, $id: UUID!, $input: ContactInput!) {
    updateContact(tenantId: $tenantId, id: $id, input: $input) { ${CONTACT_FIELDS} }
  }
`;

export const DELETE_CONTACT = /* GraphQL */ `
  mutation DeleteContact($tenantId: UUID!, $id: UUID!) {
    deleteContact(tenantId: $tenantId, id: $id) { ${CONTACT_FIELDS} }
  }
`;

export const IMPORT_CONTACTS = /* GraphQL */ `
  mutation ImportContacts($tenantId: UUID!, $csv: String!) {
    importContacts(tenantId: $tenantId, csv: $csv) {
      created
      skipped
      failed
      rows {
        line
        email
        status
        contactId
        errors {
          field
          problem
        }
      }
    }
  }
`;
