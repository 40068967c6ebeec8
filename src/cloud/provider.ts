import type { CloudBackupProvider } from './backup.provider.js';
import type { CloudConnectorSourceProvider } from './connector-source.provider.js';
import type { CloudConsentProvider, CloudDelegatedCustomerLister } from './consent.provider.js';
import type { CloudDeviceManagementProvider } from './device-management.provider.js';
import type { UserManagementCloud } from './user-management.provider.js';

/**
 * The one door to the upstream productivity cloud (DECISIONS "The upstream cloud").
 * Everything the service reads from or writes to a customer tenant goes through this interface;
 * the default implementation is the simulated cloud in ./simulated, a Microsoft Graph one plugs in later.
 * Records are provider-shaped (the cloud's ids), never our entities.
 */
import type { CloudSecurityProvider } from './security.provider.js';
import type { SecurityPostureProvider } from './security-posture.provider.js';

export type CloudRiskLevel = 'none' | 'low' | 'medium' | 'high';

export interface CloudUserRecord {
  externalId: string;
  userPrincipalName: string;
  displayName: string;
  firstName: string;
  lastName: string;
  jobTitle: string | null;
  department: string | null;
  companyName: string | null;
  officeLocation: string | null;
  businessPhone: string | null;
  mobilePhone: string | null;
  employeeId: string | null;
  employeeType: string | null;
  managerExternalId: string | null;
  usageLocation: string | null;
  accountEnabled: boolean;
  mfaStatus: 'Enabled' | 'Disabled' | 'Enforced';
  userType: 'Member' | 'Guest';
  /** Synced from an on-premises directory: profile attributes are read-only in the cloud. */
  onPremisesSynced: boolean;
  isServiceAccount: boolean;
  /**
   * The directory roles the user holds (display names: "Global Administrator", "User Administrator"…).
   * Absent: none. Decides the privileged accounts (src/users/privileged-account.ts).
   */
  directoryRoles?: string[];
  lastSignInAt: string | null;
  createdAt: string;
  /** Soft-deleted in the cloud (recycle bin). */
  deletedAt: string | null;
  /** The mail address (guests: the address they were invited at). Absent or null: none known. */
  mail?: string | null;
  /**
   * Custom directory attributes extensionAttribute1 … extensionAttribute15 (absent ones unset); used by
   * information-barrier segments (SPEC 2.6 "Segment").
   */
  extensionAttributes?: Partial<Record<`extensionAttribute${number}`, string>> | null;
  /** Guests only: where they came from and their invitation (SPEC 2.6 "Guest user", 3.3). */
  guest?: CloudGuestRecord | null;
}

/** The identity fields a record must have; everything else starts empty (no profile, enabled, not synced). */
type CloudUserIdentity = Pick<
  CloudUserRecord,
  'externalId' | 'userPrincipalName' | 'displayName' | 'firstName' | 'lastName' | 'createdAt'
>;

/** A user record with empty profile fields, for accounts made from a few facts (admins, guests, fixtures). */
export function cloudUserRecord(fields: CloudUserIdentity & Partial<CloudUserRecord>): CloudUserRecord {
  return {
    jobTitle: null,
    department: null,
    companyName: null,
    officeLocation: null,
    businessPhone: null,
    mobilePhone: null,
    employeeId: null,
    employeeType: null,
    managerExternalId: null,
    usageLocation: null,
    accountEnabled: true,
    mfaStatus: 'Disabled',
    userType: 'Member',
    onPremisesSynced: false,
    isServiceAccount: false,
    lastSignInAt: null,
    deletedAt: null,
    ...fields,
  };
}

export interface CloudGuestRecord {
  source: 'Invited user' | 'B2B collaboration' | 'External directory';
  /** Pending until the guest redeems the invitation; N/A when the guest came in without one. */
  invitationStatus: 'Pending' | 'Accepted' | 'N/A';
  invitedBy: string | null;
  invitedAt: string | null;
  /** When the invitation mail last went out; null when the guest was created without mail. */
  invitationSentAt: string | null;
  acceptedAt: string | null;
  /** What the invitation mail says and where it leads (kept for a resend). */
  personalMessage?: string | null;
  redirectUrl?: string | null;
}

/** SPEC 2.6 "Guest invitation (input)", validated; the cloud chooses the guest's UPN. */
export interface CloudGuestInvitation {
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
  personalMessage: string | null;
  /** Where the guest lands after redeeming; null: the cloud's default. */
  redirectUrl: string | null;
  /** False: the guest is created Pending and no mail is sent (SPEC 4.4). */
  sendInvitation: boolean;
  invitedBy: string;
}

export interface CloudSkuRecord {
  skuId: string;
  skuPartNumber: string;
  name: string;
  prepaidUnits: number;
}

export interface CloudGroupRecord {
  externalId: string;
  displayName: string;
  memberExternalIds: string[];
}

export interface CloudLicenseAssignmentRecord {
  userExternalId: string;
  skuId: string;
}

export interface CloudSignInRecord {
  id: string;
  userPrincipalName: string;
  riskLevel: CloudRiskLevel;
  location: string;
  ipAddress: string;
  createdAt: string;
}

export interface CloudTenantRecord {
  externalId: string;
  displayName: string;
  domains: string[];
}

export type CloudUserInput = Omit<
  CloudUserRecord,
  'externalId' | 'lastSignInAt' | 'createdAt' | 'deletedAt' | 'onPremisesSynced'
> & { password: string };

export type CloudUserPatch = Partial<Omit<CloudUserInput, 'password'>>;

/** How a soft-deleted user comes back (SPEC 3.4): under this UPN, with sign-in as given. */
export interface CloudUserRestore {
  userPrincipalName: string;
  accountEnabled: boolean;
}

/** A mail contact of a tenant (SPEC 2.6 "Contact"): an outside address in the tenant's address book. */
export interface CloudContactRecord {
  externalId: string;
  displayName: string;
  firstName: string;
  lastName: string;
  mail: string;
  companyName: string | null;
  jobTitle: string | null;
  businessPhone: string | null;
  mobilePhone: string | null;
  department: string | null;
  /** The inverse of "show in global address list". */
  hiddenFromAddressLists: boolean;
  manager: string | null;
  streetAddress: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  notes: string | null;
  /** Other addresses of the contact. */
  proxyAddresses: string[];
  /** Synced from an on-premises directory (read-only in the cloud). */
  onPremisesSynced: boolean;
  createdAt: string;
}

/** Every editable field of a contact: a create gives them all, and so does an update (full replacement). */
export type CloudContactInput = Omit<CloudContactRecord, 'externalId' | 'createdAt' | 'onPremisesSynced'>;

/** SPEC 2.6 "Restricted user": why the cloud stopped a mailbox from sending. */
export type CloudRestrictionReason = 'Outbound spam' | 'Sending limit exceeded' | 'Suspicious activity';

/** A sender the cloud's mail service restricted (blocked from sending), current or lifted. */
export interface CloudRestrictedSenderRecord {
  /** The restriction's id in the cloud (one per restriction; a user restricted again gets a new one). */
  externalId: string;
  /** The restricted mailbox's user; null when the cloud no longer knows it. */
  userExternalId: string | null;
  userPrincipalName: string;
  displayName: string;
  restrictedAt: string;
  reason: CloudRestrictionReason;
  status: 'Restricted' | 'Unblocked';
  /** What the admin should do before (or after) unblocking. */
  actionRequired: string;
  unblockedAt: string | null;
}

export interface CloudProvider
  extends
    CloudBackupProvider,
    CloudConnectorSourceProvider,
    SecurityPostureProvider,
    /** Which partner organizations each tenant granted (consent.provider.ts). */
    CloudConsentProvider,
    /** The customers granting a partner access: what it may onboard (consent.provider.ts). */
    CloudDelegatedCustomerLister {
  /** Alerts, devices and their actions, endpoint DLP (security.provider.ts). */
  readonly security: CloudSecurityProvider;
  /** Passwords, mailboxes, group removal and personal files (src/cloud/user-management.provider.ts). */
  readonly userManagement: UserManagementCloud;
  /** Enrollment attempts (src/cloud/device-management.provider.ts). */
  readonly deviceManagement: CloudDeviceManagementProvider;
  getTenant(tenantExternalId: string): Promise<CloudTenantRecord>;
  listUsers(tenantExternalId: string): Promise<CloudUserRecord[]>;
  listSkus(tenantExternalId: string): Promise<CloudSkuRecord[]>;
  listGroups(tenantExternalId: string): Promise<CloudGroupRecord[]>;
  listLicenseAssignments(tenantExternalId: string): Promise<CloudLicenseAssignmentRecord[]>;
  /** Sign-ins recorded after `since` (all of them when null). */
  listSignIns(tenantExternalId: string, since: Date | null): Promise<CloudSignInRecord[]>;

  createUser(tenantExternalId: string, input: CloudUserInput): Promise<CloudUserRecord>;
  updateUser(tenantExternalId: string, userExternalId: string, patch: CloudUserPatch): Promise<void>;
  /** Soft delete: sign-in blocked, sessions and refresh tokens revoked, groups and licenses removed, manager cleared. */
  deleteUser(tenantExternalId: string, userExternalId: string): Promise<void>;
  /**
   * Brings a soft-deleted user back from the recycle bin with its profile and object id, under the given
   * UPN; group memberships, licenses and manager are not restored (SPEC 3.4). Idempotent: a user already
   * active is given the same values. Null when the cloud holds no user with this id (purged).
   */
  restoreUser(
    tenantExternalId: string,
    userExternalId: string,
    restore: CloudUserRestore,
  ): Promise<CloudUserRecord | null>;
  /**
   * Permanently deletes a soft-deleted user (irreversible). Idempotent: a user already gone is purged.
   * False, and nothing done, when the user is not deleted upstream (restored there since).
   */
  purgeUser(tenantExternalId: string, userExternalId: string): Promise<boolean>;
  /**
   * Creates a guest (userType Guest, source "Invited user", invitation Pending) and, when asked, mails the
   * invitation. The UPN is the cloud's: name_domain#EXT#@<the tenant's initial domain>.
   */
  inviteGuest(tenantExternalId: string, invitation: CloudGuestInvitation): Promise<CloudUserRecord>;
  /**
   * Mails a guest's invitation again while it is Pending. Returns the guest as the cloud now has it: a guest
   * no longer Pending upstream (redeemed since) is returned unchanged and nothing is sent. Null when the
   * cloud holds no such active user.
   */
  resendInvitation(tenantExternalId: string, userExternalId: string): Promise<CloudUserRecord | null>;
  /** Every mail contact of the tenant, those made in the cloud and those synced from on premises. */
  listContacts(tenantExternalId: string): Promise<CloudContactRecord[]>;
  /** Creates mail contacts, all or none (a bulk import is one call); returned in the order given. */
  createContacts(tenantExternalId: string, inputs: CloudContactInput[]): Promise<CloudContactRecord[]>;
  /** Replaces every editable field of a contact. */
  updateContact(tenantExternalId: string, contactExternalId: string, input: CloudContactInput): Promise<void>;
  /** Deletes a contact for good (contacts have no recycle bin). Idempotent: a contact already gone is fine. */
  deleteContact(tenantExternalId: string, contactExternalId: string): Promise<void>;
  /** Every restriction of the tenant's mail senders, current (Restricted) and lifted (Unblocked). */
  listRestrictedSenders(tenantExternalId: string): Promise<CloudRestrictedSenderRecord[]>;
  /**
   * Lets a restricted sender send again. Idempotent: a restriction already lifted is returned unchanged.
   * Null when the cloud holds no such restriction.
   */
  unblockSender(
    tenantExternalId: string,
    restrictionExternalId: string,
  ): Promise<CloudRestrictedSenderRecord | null>;
  revokeSessions(tenantExternalId: string, userExternalId: string): Promise<void>;
  assignLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void>;
  removeLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void>;
}
