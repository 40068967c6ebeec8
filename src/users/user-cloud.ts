import type { CloudUserPatch, CloudUserRecord } from '../cloud/provider.js';
import type { UserChanges } from './user.changes.js';
import { EDITABLE_PROFILE_FIELDS, type User } from './user.entity.js';
import {
  AccountStatus,
  GuestSource,
  InvitationStatus,
  MfaStatus,
  UserSource,
  UserType,
} from './user.enums.js';

/**
 * Our user columns and the cloud's user record, both ways, in one place: changes send `cloudPatchOf`
 * (UserService), the tenant sync reads `syncedFieldsOf` (user-sync.ts).
 */

/**
 * The cloud patch of a change: only the fields that change; the manager by the cloud's id for it (given
 * when the manager changes, null to clear it).
 */
export function cloudPatchOf(changes: UserChanges, managerExternalId?: string | null): CloudUserPatch {
  const patch: CloudUserPatch = {};
  const values = patch as Record<string, unknown>;
  for (const field of [
    ...EDITABLE_PROFILE_FIELDS,
    'userPrincipalName',
    'usageLocation',
    'mfaStatus',
  ] as const) {
    if (changes[field] !== undefined) values[field] = changes[field];
  }
  if (changes.accountStatus !== undefined)
    patch.accountEnabled = changes.accountStatus === AccountStatus.ENABLED;
  if (managerExternalId !== undefined) patch.managerExternalId = managerExternalId;
  return patch;
}

const toDate = (iso: string | null): Date | null => (iso ? new Date(iso) : null);

/** Our user columns as the cloud's record says (everything but manager and deletion, which the sync maps apart). */
export function syncedFieldsOf(record: CloudUserRecord) {
  return {
    userPrincipalName: record.userPrincipalName,
    displayName: record.displayName,
    firstName: record.firstName,
    lastName: record.lastName,
    jobTitle: record.jobTitle,
    department: record.department,
    companyName: record.companyName,
    officeLocation: record.officeLocation,
    businessPhone: record.businessPhone,
    mobilePhone: record.mobilePhone,
    employeeId: record.employeeId,
    employeeType: record.employeeType,
    usageLocation: record.usageLocation,
    accountStatus: record.accountEnabled ? AccountStatus.ENABLED : AccountStatus.DISABLED,
    mfaStatus: record.mfaStatus as MfaStatus,
    userType: record.userType as UserType,
    source: record.onPremisesSynced ? UserSource.SYNCED : UserSource.CLOUD,
    isServiceAccount: record.isServiceAccount,
    directoryRoles: [...(record.directoryRoles ?? [])].sort(),
    lastSignInAt: toDate(record.lastSignInAt),
    createdAt: new Date(record.createdAt),
    ...guestFieldsOf(record),
  } satisfies Partial<User>;
}

/**
 * A guest's address and invitation (SPEC 2.6 "Guest user"); members have none. A guest the cloud tells
 * nothing more about is a B2B collaboration guest with no invitation (N/A).
 */
function guestFieldsOf(record: CloudUserRecord) {
  const guest = record.userType === 'Guest' ? record.guest : null;
  const isGuest = record.userType === 'Guest';
  return {
    email: record.mail?.toLowerCase() ?? null,
    guestSource: isGuest ? ((guest?.source as GuestSource) ?? GuestSource.B2B_COLLABORATION) : null,
    invitationStatus: isGuest
      ? ((guest?.invitationStatus as InvitationStatus) ?? InvitationStatus.NOT_APPLICABLE)
      : null,
    invitedAt: toDate(guest?.invitedAt ?? null),
    invitationAcceptedAt: toDate(guest?.acceptedAt ?? null),
    // What a cloud does not record (Graph: who invited, when the mail went) is left as we stored it.
    ...(isGuest && guest?.invitedBy === undefined ? {} : { invitedBy: guest?.invitedBy ?? null }),
    ...(isGuest && guest?.invitationSentAt === undefined
      ? {}
      : { invitationSentAt: toDate(guest?.invitationSentAt ?? null) }),
  } satisfies Partial<User>;
}

/** When the cloud deleted a user (null: not deleted). */
export const deletedAtOf = (record: Pick<CloudUserRecord, 'deletedAt'>): Date | null =>
  toDate(record.deletedAt);
