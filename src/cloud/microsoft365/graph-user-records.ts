import type { OnPremisesExtensionAttributes, User } from '@microsoft/microsoft-graph-types';
import { CloudError } from '../cloud-error.js';
import type { CloudUserInput, CloudUserPatch, CloudUserRecord } from '../provider.js';
import { MICROSOFT365 } from './graph-errors.js';

/**
 * Graph's user resource and the provider's CloudUserRecord, both ways (learn.microsoft.com, "user resource
 * type"). What Graph v1.0 does not give per user is left at its empty value and said so in
 * docs/microsoft365.md: `mfaStatus` (Disabled), `isServiceAccount`; `lastSignInAt` comes from signInActivity,
 * read apart (graph-directory-reads.ts) since a delta query does not return it (null without Entra ID P1).
 */

/** The properties every user read selects (delta, deleted items, a single user). */
export const USER_SELECT = [
  'id',
  'userPrincipalName',
  'displayName',
  'givenName',
  'surname',
  'jobTitle',
  'department',
  'companyName',
  'officeLocation',
  'businessPhones',
  'mobilePhone',
  'employeeId',
  'employeeType',
  'usageLocation',
  'accountEnabled',
  'userType',
  'onPremisesSyncEnabled',
  'createdDateTime',
  'mail',
  'creationType',
  'externalUserState',
  'externalUserStateChangeDateTime',
  'onPremisesExtensionAttributes',
].join(',');

/** A user of `/users/delta` (with `manager` selected, its change comes as `manager@delta`). */
export type GraphDeltaUser = User & {
  '@removed'?: { reason?: string };
  'manager@delta'?: Array<{ id?: string; '@removed'?: unknown }>;
  /** On a soft-deleted user (`/directory/deletedItems`). */
  deletedDateTime?: string | null;
};

function extensionAttributesOf(
  attributes: OnPremisesExtensionAttributes | null | undefined,
): CloudUserRecord['extensionAttributes'] {
  if (!attributes) return null;
  const set = Object.entries(attributes).filter(
    (entry): entry is [string, string] => /^extensionAttribute\d+$/.test(entry[0]) && Boolean(entry[1]),
  );
  return set.length ? (Object.fromEntries(set) as CloudUserRecord['extensionAttributes']) : null;
}

function guestOf(user: GraphDeltaUser): CloudUserRecord['guest'] {
  if (user.userType !== 'Guest') return null;
  const state = user.externalUserState;
  return {
    source: user.creationType === 'Invitation' ? 'Invited user' : 'B2B collaboration',
    invitationStatus: state === 'PendingAcceptance' ? 'Pending' : state === 'Accepted' ? 'Accepted' : 'N/A',
    // Graph records neither who invited nor when the mail went: left out, so ours stand.
    invitedAt: user.creationType === 'Invitation' ? (user.createdDateTime ?? null) : null,
    acceptedAt: state === 'Accepted' ? (user.externalUserStateChangeDateTime ?? null) : null,
  };
}

/** A Graph user as the provider's record; `roles` are the directory roles it holds (display names). */
export function cloudUserOf(
  user: GraphDeltaUser,
  extra: { roles?: string[]; managerId?: string | null; lastSignInAt?: string | null } = {},
): CloudUserRecord {
  const displayName = user.displayName ?? user.userPrincipalName ?? '';
  return {
    externalId: user.id ?? '',
    userPrincipalName: user.userPrincipalName ?? '',
    displayName,
    firstName: user.givenName ?? '',
    lastName: user.surname ?? '',
    jobTitle: user.jobTitle ?? null,
    department: user.department ?? null,
    companyName: user.companyName ?? null,
    officeLocation: user.officeLocation ?? null,
    businessPhone: user.businessPhones?.[0] ?? null,
    mobilePhone: user.mobilePhone ?? null,
    employeeId: user.employeeId ?? null,
    employeeType: user.employeeType ?? null,
    managerExternalId: extra.managerId ?? null,
    usageLocation: user.usageLocation ?? null,
    accountEnabled: user.accountEnabled ?? true,
    mfaStatus: 'Disabled',
    userType: user.userType === 'Guest' ? 'Guest' : 'Member',
    onPremisesSynced: user.onPremisesSyncEnabled === true,
    isServiceAccount: false,
    ...(extra.roles?.length ? { directoryRoles: [...extra.roles].sort() } : {}),
    lastSignInAt: extra.lastSignInAt ?? null,
    createdAt: user.createdDateTime ?? new Date(0).toISOString(),
    deletedAt: user.deletedDateTime ?? null,
    mail: user.mail ?? null,
    extensionAttributes: extensionAttributesOf(user.onPremisesExtensionAttributes),
    guest: guestOf(user),
  };
}

/** The manager a full delta round gives (`manager@delta`, the one entry not removed). */
export function managerOfDelta(user: GraphDeltaUser): string | null {
  return user['manager@delta']?.find((entry) => entry['@removed'] === undefined)?.id ?? null;
}

/** The profile fields of a patch or input, as Graph's user properties (only those given). */
export function graphUserFields(patch: CloudUserPatch): Partial<User> {
  if (patch.mfaStatus !== undefined)
    throw new CloudError(
      'Unsupported',
      'Microsoft Graph v1.0 has no API to set per-user MFA (use Conditional Access or security defaults) ' +
        '(capability "mfaStatus", provider microsoft365)',
      { provider: MICROSOFT365, capability: 'mfaStatus' },
    );
  const fields: Partial<User> = {};
  const copy = <K extends keyof User>(key: K, value: User[K] | undefined) => {
    if (value !== undefined) fields[key] = value;
  };
  copy('userPrincipalName', patch.userPrincipalName);
  copy('displayName', patch.displayName);
  copy('givenName', patch.firstName);
  copy('surname', patch.lastName);
  copy('jobTitle', patch.jobTitle);
  copy('department', patch.department);
  copy('companyName', patch.companyName);
  copy('officeLocation', patch.officeLocation);
  if (patch.businessPhone !== undefined)
    fields.businessPhones = patch.businessPhone ? [patch.businessPhone] : [];
  copy('mobilePhone', patch.mobilePhone);
  copy('employeeId', patch.employeeId);
  copy('employeeType', patch.employeeType);
  copy('usageLocation', patch.usageLocation);
  copy('accountEnabled', patch.accountEnabled);
  return fields;
}

/** `POST /users`'s body: the required accountEnabled, displayName, mailNickname, UPN and passwordProfile. */
export function graphNewUser(input: CloudUserInput): User {
  const { mfaStatus, password, requestKey: _key, managerExternalId: _manager, ...rest } = input;
  void _key;
  void _manager;
  // A new user has no per-user MFA; asking for it is refused like a change of it (never silently dropped).
  const fields = graphUserFields(mfaStatus === 'Disabled' ? rest : { ...rest, mfaStatus });
  return {
    ...fields,
    accountEnabled: input.accountEnabled,
    displayName: input.displayName,
    mailNickname: mailNicknameOf(input.userPrincipalName),
    userPrincipalName: input.userPrincipalName,
    passwordProfile: { forceChangePasswordNextSignIn: true, password },
  };
}

/** The local part of the UPN, reduced to what mailNickname allows (ASCII, no spaces or @ ( ) \ [ ] " ; : < > ,). */
export function mailNicknameOf(userPrincipalName: string): string {
  const local = userPrincipalName.split('@')[0] ?? '';
  const nickname = local.replace(/[^A-Za-z0-9.!#$%&'*+\-/=?^_`{|}~]/g, '').slice(0, 64);
  return nickname || 'user';
}
