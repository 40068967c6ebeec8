import { DAY_MS } from '../core/clock.js';
import { StaleGuestReason, type GuestUser, type StaleGuest } from './guest.types.js';
import type { User } from './user.entity.js';
import { AccountStatus, GuestSource, InvitationStatus, UserType } from './user.enums.js';

/** What the guest routes answer: a user row seen as a guest, and a stale guest's row with its reason. */

export function guestOf(user: User): GuestUser {
  return {
    id: user.id,
    tenantId: user.tenantId,
    displayName: user.displayName,
    email: user.email,
    userPrincipalName: user.userPrincipalName,
    userType: user.userType,
    source: user.guestSource ?? GuestSource.B2B_COLLABORATION,
    invitationStatus: user.invitationStatus ?? InvitationStatus.NOT_APPLICABLE,
    accountStatus: user.accountStatus,
    createdAt: user.createdAt,
    lastSignInAt: user.lastSignInAt,
    invitedBy: user.invitedBy,
    invitedAt: user.invitedAt,
    invitationSentAt: user.invitationSentAt,
    invitationAcceptedAt: user.invitationAcceptedAt,
    deletedAt: user.deletedAt,
  };
}

/** "jane.doe-smith@example.com" → "Jane Doe Smith": a display name when the invitation gives none. */
export function displayNameFromEmail(email: string): string {
  const words = email
    .slice(0, email.indexOf('@'))
    .split(/[._+-]+/)
    .filter((word) => word !== '');
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  return name || email;
}

/** to_json(timestamptz) gives ISO 8601 text that Date parses exactly. */
const iso = (column: string) => `to_json(${column}) #>> '{}'`;

/** The columns of a StaleRow (GuestService.stale), times as ISO text. */
export const STALE_COLUMNS = `id, tenant_id, display_name, email, user_principal_name, guest_source, invitation_status,
  account_status, ${iso('created_at')} as created_at, ${iso('last_sign_in_at')} as last_sign_in_at,
  invited_by, ${iso('invited_at')} as invited_at, ${iso('invitation_sent_at')} as invitation_sent_at,
  ${iso('invitation_accepted_at')} as invitation_accepted_at, ${iso('guest_inactive_since')} as inactive_since`;

export interface StaleRow {
  id: string;
  tenant_id: string;
  display_name: string;
  email: string | null;
  user_principal_name: string;
  guest_source: GuestSource | null;
  invitation_status: InvitationStatus | null;
  account_status: AccountStatus;
  created_at: string;
  last_sign_in_at: string | null;
  invited_by: string | null;
  invited_at: string | null;
  invitation_sent_at: string | null;
  invitation_accepted_at: string | null;
  inactive_since: string;
}

const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** A stale guest's row (GuestService.stale) as the API shows it, with why and since when it is stale. */
export function staleGuestOf(row: StaleRow, now: Date): StaleGuest {
  const inactiveSince = new Date(row.inactive_since);
  const reason =
    row.last_sign_in_at !== null
      ? StaleGuestReason.NO_SIGN_IN_FOR_90_DAYS
      : row.invitation_status === InvitationStatus.PENDING
        ? StaleGuestReason.PENDING_INVITATION_NOT_REDEEMED
        : StaleGuestReason.ACCEPTED_NEVER_SIGNED_IN;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    displayName: row.display_name,
    email: row.email,
    userPrincipalName: row.user_principal_name,
    userType: UserType.GUEST,
    source: row.guest_source ?? GuestSource.B2B_COLLABORATION,
    invitationStatus: row.invitation_status ?? InvitationStatus.NOT_APPLICABLE,
    accountStatus: row.account_status,
    createdAt: new Date(row.created_at),
    lastSignInAt: toDate(row.last_sign_in_at),
    invitedBy: row.invited_by,
    invitedAt: toDate(row.invited_at),
    invitationSentAt: toDate(row.invitation_sent_at),
    invitationAcceptedAt: toDate(row.invitation_accepted_at),
    deletedAt: null,
    reason,
    inactiveSince,
    daysInactive: Math.floor((now.getTime() - inactiveSince.getTime()) / DAY_MS),
  };
}
