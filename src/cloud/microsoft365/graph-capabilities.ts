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
    graphApi: 'GET /subscribedSkus, POST /users/{id}/assignLicense',
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
    capability: 'securityAlerts',
    available: true,
    graphApi: 'GET /security/alerts_v2, PATCH /security/alerts_v2/{id} (status and classification)',
    permissions: ['SecurityAlert.ReadWrite.All'],
  },
  {
    capability: 'devices',
    available: false,
    graphApi: 'GET /deviceManagement/managedDevices, Defender for Endpoint machine actions (issue #30)',
    permissions: [],
    reason:
      'The Microsoft 365 provider does not manage devices and their actions (Intune, Defender for Endpoint) yet',
  },
  {
    capability: 'securityControls',
    available: true,
    graphApi:
      'GET /security/secureScoreControlProfiles, GET /security/secureScores?$top=1 (whether each control is met)',
    permissions: ['SecurityEvents.Read.All'],
  },
  {
    capability: 'securityControlApply',
    available: false,
    graphApi:
      'PATCH /policies/identitySecurityDefaultsEnforcementPolicy, conditional access policies (issue #30)',
    permissions: [],
    reason: 'The Microsoft 365 provider does not apply security controls yet',
  },
  {
    capability: 'mailContacts',
    available: false,
    graphApi: 'none (Exchange Online PowerShell: New-MailContact)',
    permissions: [],
    reason: `${NO_API}: mail contacts of Exchange Online are managed through Exchange Online PowerShell`,
  },
  {
    capability: 'restrictedSenders',
    available: false,
    graphApi: 'none (Exchange Online PowerShell: Get-BlockedSenderAddress, Remove-BlockedSenderAddress)',
    permissions: [],
    reason: `${NO_API}: the restricted senders of Exchange Online are managed through Exchange Online PowerShell`,
  },
  {
    capability: 'informationBarriers',
    available: false,
    graphApi: 'none (Security & Compliance PowerShell)',
    permissions: [],
    reason: `${NO_API}: information barrier policies are managed through Security & Compliance PowerShell`,
  },
  {
    capability: 'endpointDlp',
    available: false,
    graphApi: 'none (Microsoft Purview portal and Security & Compliance PowerShell)',
    permissions: [],
    reason: `${NO_API}: endpoint DLP policies are managed in Microsoft Purview`,
  },
  {
    capability: 'complianceConnectorSources',
    available: false,
    graphApi: 'none (Microsoft Purview data connectors)',
    permissions: [],
    reason: `${NO_API}: the sources of compliance data connectors are configured in Microsoft Purview`,
  },
];

/** Every application permission the available areas need, sorted (what the app registration should request). */
export const MICROSOFT365_APPLICATION_PERMISSIONS: readonly string[] = [
  ...new Set(MICROSOFT365_CAPABILITIES.flatMap((capability) => capability.permissions)),
].sort();

/** The one permission the connection test needs: its Graph read is `GET /organization`. */
export const CONNECTION_TEST_PERMISSION = 'Organization.Read.All';
