import { CloudError } from '../cloud-error.js';
import { MICROSOFT365 } from './graph-errors.js';

/**
 * What the live environment does through Microsoft Graph v1.0, area by area, with the application
 * permissions each needs (docs/microsoft365.md has the why of each). Areas Graph v1.0 has no API for are
 * listed with `available: false` and the reason: in the live environment they answer 501 NOT_SUPPORTED
 * (DECISIONS "The upstream cloud"), never a pretended success.
 */
export interface GraphCapability {
  /** The product's name for the area (as in the API's paths and docs). */
  capability: string;
  available: boolean;
  /** The Graph requests the area makes, or why none exists. */
  graphApi: string;
  /** Application permissions (Graph app roles) it needs; empty when not available. */
  permissions: readonly string[];
  reason?: string;
}

const NO_API = 'Microsoft Graph v1.0 has no API for it';

function notAvailable(capability: string, graphApi: string, reason: string): GraphCapability {
  return { capability, available: false, graphApi, permissions: [], reason };
}

export const MICROSOFT365_CAPABILITIES: readonly GraphCapability[] = [
  {
    capability: 'customers',
    available: true,
    graphApi: 'GET /tenantRelationships/delegatedAdminCustomers (partner tenant)',
    permissions: ['DelegatedAdminRelationship.Read.All'],
  },
  {
    capability: 'tenants',
    available: true,
    graphApi: 'GET /organization (name and verified domains)',
    permissions: ['Organization.Read.All'],
  },
  {
    capability: 'users',
    available: true,
    graphApi:
      'GET /users/delta, POST /users, PATCH /users/{id}, PUT /users/{id}/manager/$ref, DELETE /users/{id}, ' +
      'POST /users/{id}/revokeSignInSessions; GET /directoryRoles and their members (privileged accounts)',
    permissions: ['User.ReadWrite.All', 'RoleManagement.Read.Directory'],
  },
  {
    capability: 'passwordReset',
    available: true,
    graphApi: 'PATCH /users/{id} (passwordProfile)',
    permissions: ['User-PasswordProfile.ReadWrite.All'],
  },
  {
    capability: 'deletedUsers',
    available: true,
    graphApi:
      'GET /directory/deletedItems/microsoft.graph.user, POST /directory/deletedItems/{id}/restore, ' +
      'DELETE /directory/deletedItems/{id}',
    permissions: ['User.ReadWrite.All'],
  },
  {
    capability: 'licenses',
    available: true,
    graphApi: 'GET /subscribedSkus, GET /users?$select=id,assignedLicenses, POST /users/{id}/assignLicense',
    permissions: ['LicenseAssignment.ReadWrite.All'],
  },
  {
    capability: 'groups',
    available: true,
    graphApi: 'GET /groups, GET /groups/{id}/members, DELETE /groups/{id}/members/{userId}/$ref',
    permissions: ['GroupMember.ReadWrite.All'],
  },
  {
    capability: 'guests',
    available: true,
    graphApi: 'POST /invitations; stale guests from signInActivity (Entra ID P1)',
    permissions: ['User.Invite.All', 'AuditLog.Read.All'],
  },
  {
    capability: 'signIns',
    available: true,
    graphApi: 'GET /auditLogs/signIns (Entra ID P1)',
    permissions: ['AuditLog.Read.All'],
  },
  {
    capability: 'riskyUsers',
    available: true,
    graphApi: 'GET /identityProtection/riskyUsers (Entra ID P2)',
    permissions: ['IdentityRiskyUser.Read.All'],
  },
  {
    capability: 'autoReplies',
    available: true,
    graphApi: 'PATCH /users/{id}/mailboxSettings (automaticRepliesSetting)',
    permissions: ['MailboxSettings.ReadWrite'],
  },
  {
    capability: 'securityAlerts',
    available: true,
    graphApi:
      'GET /security/alerts_v2, PATCH /security/alerts_v2/{id} (status, classification, assignedTo), ' +
      'POST /security/alerts_v2/{id}/comments',
    permissions: ['SecurityAlert.ReadWrite.All'],
  },
  {
    capability: 'dlpAlerts',
    available: true,
    graphApi: "GET /security/alerts_v2?$filter=serviceSource eq 'dataLossPrevention' (endpoint DLP alerts)",
    permissions: ['SecurityAlert.ReadWrite.All'],
  },
  {
    capability: 'securityControls',
    available: true,
    graphApi:
      'GET /security/secureScoreControlProfiles, GET /security/secureScores?$top=1 (whether each control is met), GET /security/secureScores?$top=N (the secure score and its daily history)',
    permissions: ['SecurityEvents.Read.All'],
  },
  notAvailable(
    'mfaStatus',
    'none (per-user MFA: Conditional Access policies or security defaults instead)',
    'Microsoft Graph v1.0 has no API to set per-user MFA (use Conditional Access or security defaults)',
  ),
  notAvailable(
    'mailContacts',
    'none (Exchange Online PowerShell: New-MailContact)',
    `${NO_API}: mail contacts of Exchange Online are managed through Exchange Online PowerShell`,
  ),
  notAvailable(
    'restrictedSenders',
    'none (Exchange Online PowerShell: Get-BlockedSenderAddress, Remove-BlockedSenderAddress)',
    `${NO_API}: the restricted senders of Exchange Online are managed through Exchange Online PowerShell`,
  ),
  notAvailable(
    'sharedMailboxes',
    'none (Exchange Online PowerShell: Get-Mailbox, Set-Mailbox -Type Shared)',
    `${NO_API}: a mailbox's type, and its conversion to a shared mailbox, are managed through Exchange Online PowerShell`,
  ),
  notAvailable(
    'mailboxDelegation',
    'none (Exchange Online PowerShell: Add-MailboxPermission -AccessRights FullAccess)',
    `${NO_API}: full access to another user's mailbox is granted through Exchange Online PowerShell`,
  ),
  {
    capability: 'oneDriveTransfer',
    available: true,
    graphApi:
      'GET /users/{id}/drive/root/children, GET /users/{id}/drive, POST /drives/{id}/root/children, ' +
      'POST /users/{id}/drive/items/{id}/copy (watched to completion), DELETE /users/{id}/drive/items/{id}',
    permissions: ['Files.ReadWrite.All'],
  },
  notAvailable(
    'deletedUserOneDrive',
    'none (GET /users/{id}/drive answers 404 once the user is deleted)',
    'Microsoft Graph v1.0 reaches a OneDrive through its user, which it no longer serves once the user is ' +
      'deleted; the retained OneDrive is reachable only through its SharePoint site, which the provider ' +
      'does not track yet',
  ),
  notAvailable(
    'informationBarriers',
    'none (Security & Compliance PowerShell)',
    `${NO_API}: information barrier policies are managed through Security & Compliance PowerShell`,
  ),
  notAvailable(
    'endpointDlp',
    'none (Microsoft Purview portal and Security & Compliance PowerShell)',
    `${NO_API}: endpoint DLP policies are managed in Microsoft Purview (DLP alerts are read: dlpAlerts)`,
  ),
  notAvailable(
    'complianceConnectorSources',
    'none (Microsoft Purview data connectors)',
    `${NO_API}: the sources of compliance data connectors are configured in Microsoft Purview`,
  ),
  {
    capability: 'devices',
    available: true,
    graphApi:
      'GET /deviceManagement/managedDevices (Intune) joined with Defender for Endpoint GET /api/machines, ' +
      'the isolate/unisolate GET /api/machineactions and GET /api/recommendations (+ machineReferences), ' +
      'by Entra ID device id',
    permissions: [
      'DeviceManagementManagedDevices.Read.All',
      'Machine.Read.All',
      'SecurityRecommendation.Read.All',
    ],
  },
  {
    capability: 'deviceActions',
    available: true,
    graphApi:
      'Defender for Endpoint: POST /api/machines/{id}/isolate, /unisolate, /runAntiVirusScan; ' +
      'GET /api/machineactions/{id} (followed to completion)',
    permissions: ['Machine.Read.All', 'Machine.Isolate', 'Machine.Scan'],
  },
  {
    capability: 'deviceEnrollment',
    available: true,
    graphApi:
      'GET/POST/PATCH /deviceManagement/deviceEnrollmentConfigurations (platform restrictions, device ' +
      'limits), POST .../{id}/setPriority (per kind), POST .../{id}/assign, DELETE .../{id} (a create our save refused)',
    permissions: ['DeviceManagementServiceConfig.ReadWrite.All'],
  },
  notAvailable(
    'blockedEnrollments',
    'GET /deviceManagement/troubleshootingEvents (enrollmentTroubleshootingEvent) lacks what restrictions decide on',
    'Graph v1.0 reports failed enrollments (enrollmentTroubleshootingEvent) without the device ownership, ' +
      'manufacturer, device name or user principal name our restriction policies decide on, and Intune ' +
      'enforces the restrictions itself; blocked enrollment attempts are not available on Microsoft 365',
  ),
  {
    capability: 'securityControlApply',
    available: true,
    graphApi:
      'GET/PATCH /policies/identitySecurityDefaultsEnforcementPolicy (mfa-all-users, block-legacy-authentication), ' +
      'GET/POST/PATCH /identity/conditionalAccess/policies (mfa-admin-roles; report-only for a dry run)',
    permissions: [
      'Policy.Read.All',
      'Policy.ReadWrite.ConditionalAccess',
      'Policy.ReadWrite.SecurityDefaults',
    ],
  },
  notAvailable(
    'securityControlApplyOther',
    'none (only security defaults and conditional access policies are applied through Graph)',
    `${NO_API} to apply this security control: only mfa-admin-roles (conditional access), mfa-all-users and ` +
      'block-legacy-authentication (security defaults) are applied on Microsoft 365',
  ),
  {
    capability: 'backup',
    available: true,
    graphApi:
      'GET /solutions/backupRestore (serviceStatus), GET /solutions/backupRestore/{mailbox,drive,site}ProtectionUnits, ' +
      'GET /solutions/backupRestore/restorePoints ($batch), POST /solutions/backupRestore/restorePoints/search ' +
      '(older restore points of one resource, on demand), POST /solutions/backupRestore/{exchange,' +
      'oneDriveForBusiness,sharePoint}RestoreSessions, POST /solutions/backupRestore/restoreSessions/{id}/activate ' +
      '(Microsoft 365 Backup: whole mailboxes, OneDrives and sites, in place or to a new location)',
    permissions: [
      'BackupRestore-Control.Read.All',
      'BackupRestore-Configuration.Read.All',
      'BackupRestore-Search.Read.All',
      'BackupRestore-Restore.ReadWrite.All',
    ],
  },
  notAvailable(
    'backupItemBrowsing',
    'none (restore points have no item tree on Graph v1.0)',
    'Microsoft 365 Backup on Graph v1.0 restores a whole mailbox, OneDrive or site: it has no API to browse a ' +
      "restore point's folders and items, nor to restore single items or containers (restore the whole " +
      'resource with restoreType Point-in-time)',
  ),
  notAvailable(
    'backupRestoreElsewhere',
    'none (restore sessions restore in place or to a new location Microsoft 365 Backup names)',
    'Microsoft 365 Backup restores to the original location only (in place, or beside it under a new name ' +
      'it chooses): it has no API to restore to a location we name, to another tenant, or to an export',
  ),
  notAvailable(
    'backupSkipConflicts',
    'none (destinationType inPlace or new)',
    'Microsoft 365 Backup cannot skip existing content: restore with conflictPolicy Overwrite (in place) or ' +
      'Keep both (to a new location beside it)',
  ),
  notAvailable(
    'backupTeamChat',
    'none (Microsoft 365 Backup protects Exchange, OneDrive and SharePoint)',
    'Microsoft 365 Backup does not protect Teams chats: there are no Team chat snapshots to restore',
  ),
];

/** Every application permission the available areas need, sorted (what the app registration should request). */
export const MICROSOFT365_APPLICATION_PERMISSIONS: readonly string[] = [
  ...new Set(MICROSOFT365_CAPABILITIES.flatMap((capability) => capability.permissions)),
].sort();

/** The one permission the connection test needs: its Graph read is `GET /organization`. */
export const CONNECTION_TEST_PERMISSION = 'Organization.Read.All';

/**
 * The CloudError Unsupported of a capability the table lists as not available, with its reason (501
 * NOT_SUPPORTED in a request). A capability missing from the table, or listed as available, is a programming
 * error.
 */
export function unsupportedError(capability: string): CloudError {
  const listed = MICROSOFT365_CAPABILITIES.find((candidate) => candidate.capability === capability);
  if (!listed?.reason || listed.available)
    throw new Error(`Capability "${capability}" is not listed as unavailable in MICROSOFT365_CAPABILITIES`);
  return new CloudError(
    'Unsupported',
    `${listed.reason} (capability "${capability}", provider ${MICROSOFT365})`,
    {
      provider: MICROSOFT365,
      capability,
    },
  );
}
