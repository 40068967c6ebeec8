import type { CloudBackupProvider } from './backup.provider.js';
import type { CloudPages } from './pages.js';
import type { CloudConnectorSourceProvider } from './connector-source.provider.js';
import type { CloudDeviceManagementProvider } from './device-management.provider.js';
import type {
  CloudContactInput,
  CloudContactRecord,
  CloudGroupRecord,
  CloudGuestInvitation,
  CloudLicenseAssignmentRecord,
  CloudRestrictedSenderRecord,
  CloudSignInRecord,
  CloudSkuRecord,
  CloudTenantRecord,
  CloudUserInput,
  CloudUserPatch,
  CloudUserRecord,
  CloudUserRestore,
} from './provider.js';
import type { CloudSecurityProvider } from './security.provider.js';
import type { SecurityPostureProvider } from './security-posture.provider.js';
import type { UserManagementCloud } from './user-management.provider.js';
import type { CloudUserRound } from './user-round.js';

/**
 * One customer tenant of the cloud, as the partner that obtained it (`CloudProvider.forTenant`, cloud-provider.ts)
 * may use it: one client per area, none of whose methods takes the tenant again. Lists come in pages
 * (pages.ts). Every method rejects with a CloudError (cloud-error.ts) when the cloud fails or refuses.
 */
export interface TenantCloud {
  readonly tenantExternalId: string;
  /** The tenant itself, users (members, guests, soft-deleted ones), groups and sign-ins. */
  readonly directory: CloudDirectory;
  /** Subscribed SKUs and the licenses assigned to users. */
  readonly licenses: CloudLicenses;
  /** Mail contacts of the tenant's address book. */
  readonly contacts: CloudContacts;
  /** The mail service's restricted senders. */
  readonly exchange: CloudExchange;
  /** Alerts, devices and their actions, endpoint DLP (security.provider.ts). */
  readonly security: CloudSecurityProvider;
  /** Passwords, mailboxes, group removal and personal files (user-management.provider.ts). */
  readonly userManagement: UserManagementCloud;
  /** Enrollment attempts (device-management.provider.ts). */
  readonly deviceManagement: CloudDeviceManagementProvider;
  /** Backup snapshots and restores (backup.provider.ts). */
  readonly backup: CloudBackupProvider;
  /** Compliance connectors' third-party sources (connector-source.provider.ts). */
  readonly connectorSources: CloudConnectorSourceProvider;
  /** Security controls and information barriers (security-posture.provider.ts). */
  readonly securityPosture: SecurityPostureProvider;
}

export interface CloudDirectory {
  /** The tenant's name and domains (NotFound when the cloud has no such tenant). */
  getTenant(): Promise<CloudTenantRecord>;
  /** Every user: members and guests, soft-deleted ones too (`deletedAt`). */
  listUsers(): CloudPages<CloudUserRecord>;
  /**
   * The users as the tenant sync reads them (user-round.ts): every user when `cursor` is null, unknown to the
   * cloud or expired, else the changes since it; the round says which, and where the next one starts. Read
   * whole: the cursor of the next round exists only once the last page is read.
   */
  readUsers(cursor: string | null): Promise<CloudUserRound>;
  listGroups(): CloudPages<CloudGroupRecord>;
  /** Sign-ins recorded after `since` (all of them when null). */
  listSignIns(since: Date | null): CloudPages<CloudSignInRecord>;
  createUser(input: CloudUserInput): Promise<CloudUserRecord>;
  updateUser(userExternalId: string, patch: CloudUserPatch): Promise<void>;
  /** Soft delete: sign-in blocked, sessions and refresh tokens revoked, groups and licenses removed, manager cleared. */
  deleteUser(userExternalId: string): Promise<void>;
  /**
   * Brings a soft-deleted user back from the recycle bin with its profile and object id, under the given
   * UPN; group memberships, licenses and manager are not restored (SPEC 3.4). Idempotent: a user already
   * active is given the same values. Null when the cloud holds no user with this id (purged).
   */
  restoreUser(userExternalId: string, restore: CloudUserRestore): Promise<CloudUserRecord | null>;
  /**
   * Permanently deletes a soft-deleted user (irreversible). Idempotent: a user already gone is purged.
   * False, and nothing done, when the user is not deleted upstream (restored there since).
   */
  purgeUser(userExternalId: string): Promise<boolean>;
  revokeSessions(userExternalId: string): Promise<void>;
  /**
   * Creates a guest (userType Guest, source "Invited user", invitation Pending) and, when asked, mails the
   * invitation. The UPN is the cloud's: name_domain#EXT#@<the tenant's initial domain>.
   */
  inviteGuest(invitation: CloudGuestInvitation): Promise<CloudUserRecord>;
  /**
   * Mails a guest's invitation again while it is Pending. Returns the guest as the cloud now has it: a guest
   * no longer Pending upstream (redeemed since) is returned unchanged and nothing is sent. Null when the
   * cloud holds no such active user.
   */
  resendInvitation(userExternalId: string): Promise<CloudUserRecord | null>;
}

export interface CloudLicenses {
  listSkus(): CloudPages<CloudSkuRecord>;
  listLicenseAssignments(): CloudPages<CloudLicenseAssignmentRecord>;
  assignLicense(userExternalId: string, skuId: string): Promise<void>;
  removeLicense(userExternalId: string, skuId: string): Promise<void>;
}

export interface CloudContacts {
  /** Every mail contact of the tenant, those made in the cloud and those synced from on premises. */
  listContacts(): CloudPages<CloudContactRecord>;
  /** Creates mail contacts, all or none (a bulk import is one call); returned in the order given. */
  createContacts(inputs: CloudContactInput[]): Promise<CloudContactRecord[]>;
  /** Replaces every editable field of a contact. */
  updateContact(contactExternalId: string, input: CloudContactInput): Promise<void>;
  /** Deletes a contact for good (contacts have no recycle bin). Idempotent: a contact already gone is fine. */
  deleteContact(contactExternalId: string): Promise<void>;
}

export interface CloudExchange {
  /** Every restriction of the tenant's mail senders, current (Restricted) and lifted (Unblocked). */
  listRestrictedSenders(): CloudPages<CloudRestrictedSenderRecord>;
  /**
   * Lets a restricted sender send again. Idempotent: a restriction already lifted is returned unchanged.
   * Null when the cloud holds no such restriction.
   */
  unblockSender(restrictionExternalId: string): Promise<CloudRestrictedSenderRecord | null>;
}
