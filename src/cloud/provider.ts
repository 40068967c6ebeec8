/**
 * The records of the upstream cloud, as every provider returns them (provider-shaped: the cloud's ids, never
 * our entities). The interfaces are in cloud-provider.ts (the provider) and tenant-cloud.ts (a tenant's
 * client).
 */
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
  /** Absent: the cloud does not record it (Microsoft Graph), so the value we stored at the invitation stands. */
  invitedBy?: string | null;
  invitedAt: string | null;
  /**
   * When the invitation mail last went out; null when the guest was created without mail. Absent: the cloud
   * does not record it (Microsoft Graph), so ours stands.
   */
  invitationSentAt?: string | null;
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
> & {
  password: string;
  /**
   * Idempotency key of this write, derived from the job item that makes it (e.g. `user-import:<id>:<line>`):
   * a second call with the same key creates nothing and answers the user the first call created, so a run
   * resumed after a crash between the cloud call and its save learns that the write happened (docs/reliability.md).
   */
  requestKey?: string;
};

export type CloudUserPatch = Partial<Omit<CloudUserInput, 'password' | 'requestKey'>>;

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
