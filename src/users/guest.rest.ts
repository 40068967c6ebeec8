import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { RECOVERY_WINDOW_DAYS } from './deleted-user.types.js';
import { STALE_GUEST_DAYS } from './guest.types.js';

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

const LIST_GUESTS = /* GraphQL */ `
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

const INVITE_GUEST = /* GraphQL */ `
  mutation InviteGuest($tenantId: UUID!, $input: InviteGuestInput!) {
    inviteGuest(tenantId: $tenantId, input: $input) { ${GUEST_FIELDS} }
  }
`;

const RESEND_GUEST_INVITATION = /* GraphQL */ `
  mutation ResendGuestInvitation($tenantId: UUID!, $id: UUID!) {
    resendGuestInvitation(tenantId: $tenantId, id: $id) { ${GUEST_FIELDS} }
  }
`;

const LIST_STALE_GUESTS = /* GraphQL */ `
  query ListStaleGuests($tenantId: UUID!, $page: Int, $limit: Int) {
    staleGuests(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${GUEST_FIELDS} reason inactiveSince daysInactive }
      pageInfo { page limit total }
      signInDataAvailable
      signInDataUnavailableReason
    }
  }
`;

const REMOVE_GUEST = /* GraphQL */ `
  mutation RemoveGuest($tenantId: UUID!, $id: UUID!) {
    removeGuest(tenantId: $tenantId, id: $id) { ${GUEST_FIELDS} deletedAt }
  }
`;

/**
 * Guests (SPEC 2.6, 3.3; 4.2 identity) in the tenant named by X-Tenant-Id (or ?tenantId=). Reading needs
 * `read:users`; inviting and resending `write:users`; removing a guest an Admin key (or `write:users` on an access
 * token). `/users/stale-guests` is a fixed segment served before `/users/:id`.
 */
export const GUEST_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/identity/users',
    operation: LIST_GUESTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      type: { type: 'string' },
      invitationStatus: { type: 'string' },
    },
    summary:
      'list guest users, newest first (?type=guest required; optional ?invitationStatus=Pending|Accepted|N/A)',
  },
  {
    method: 'POST',
    path: '/identity/users/invite',
    operation: INVITE_GUEST,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary:
      'invite a guest {email, displayName?, personalMessage?, redirectUrl?, sendInvitation? (default true)}; 409 when the address is already in the tenant',
  },
  {
    method: 'POST',
    path: '/identity/users/:id/resend-invite',
    operation: RESEND_GUEST_INVITATION,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: 'mail a guest invitation again; 409 unless it is Pending',
  },
  {
    method: 'GET',
    path: '/identity/users/stale-guests',
    operation: LIST_STALE_GUESTS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    // Whether sign-in data let every guest be judged describes the whole answer: meta.
    metaFields: ['signInDataAvailable', 'signInDataUnavailableReason'],
    summary: `guests with no sign-in for ${STALE_GUEST_DAYS}+ days (or never, ${STALE_GUEST_DAYS}+ days after accepting or being invited), longest inactive first, with reason`,
  },
  {
    method: 'DELETE',
    path: '/identity/users/:id',
    operation: REMOVE_GUEST,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: `remove a guest user: soft delete, restorable for ${RECOVERY_WINDOW_DAYS} days (Admin key); 409 for a member (use DELETE /v1/tenants/:id/users/:userId)`,
  },
];
