import { BackupSnapshot } from '../backup/backup-snapshot.entity.js';
import { RestoreJobItem } from '../backup/restore-job-item.entity.js';
import { RestoreJob } from '../backup/restore-job.entity.js';
import { ConnectorRun } from '../compliance/connector-run.entity.js';
import { ComplianceConnector } from '../compliance/connector.entity.js';
import { BarrierApplication, BarrierPolicy, BarrierSegment } from '../info-barriers/info-barrier.entity.js';
import { SecureScoreSnapshot } from '../secure-score/secure-score-snapshot.entity.js';
import { ApiKey } from '../api-keys/api-key.entity.js';
import { SimulatedCloudObject, SimulatedCloudTenant } from '../cloud/simulated/simulated-cloud.entity.js';
import { SimulatedTenantGrant } from '../cloud/simulated/consent.simulated.js';
import { Contact } from '../contacts/contact.entity.js';
import { DomainEvent } from '../core/events/domain-event.entity.js';
import { RestrictedUser } from '../exchange/restricted-user.entity.js';
import { JobWorkerHeartbeat } from '../core/job-worker-heartbeat.entity.js';
import { Integration } from '../integrations/integration.entity.js';
import { LicenseAssignment, TenantLicense } from '../licenses/license.entity.js';
import { Member } from '../members/member.entity.js';
import { OAuthClient } from '../oauth/oauth-client.entity.js';
import { OAuthAuthorizationCode, OAuthToken } from '../oauth/oauth-grant.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { AnnouncedSignIn } from '../security/announced-sign-in.entity.js';
import { TenantSync } from '../tenants/sync-run.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Group, GroupMembership } from '../users/group.entity.js';
import { User } from '../users/user.entity.js';
import { WebhookAttempt, WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import { AlertComment, SecurityAlert } from '../alerts/alert.entity.js';
import { DeviceAction } from '../devices/device-action.entity.js';
import { DeviceRecommendationCount } from '../devices/device-recommendation-count.entity.js';
import { Device } from '../devices/device.entity.js';
import { EndpointDlpAlert, EndpointDlpPolicy } from '../endpoint-dlp/dlp.entity.js';
import { SecretsKeyCheck } from './secrets-key-check.entity.js';
import {
  RecommendationApplyOperation,
  RecommendationApplyResult,
} from '../recommendations/recommendation-apply.entity.js';
import {
  RecommendationStatusChange,
  TenantRecommendation,
} from '../recommendations/tenant-recommendation.entity.js';
import { UserImport, UserImportRow } from '../user-management/user-import.entity.js';
import { UserOffboarding } from '../user-management/offboarding.entity.js';
import { BlockedEnrollmentAttempt } from '../device-management/blocked-enrollment.entity.js';
import { EnrollmentRestriction } from '../device-management/enrollment-policy.entity.js';
import { TenantGroup, TenantGroupMember } from '../tenant-groups/tenant-group.entity.js';
import { PortalDirtyTenant, PortalTenantAggregate } from '../portal/portal-aggregate.entity.js';
import { DeviceDashboardCount } from '../device-management/device-dashboard-count.entity.js';

/** Entities that belong to an organization and environment; the scope filter applies to each. */
export const SCOPED_ENTITIES = [
  ApiKey,
  Tenant,
  TenantSync,
  User,
  Contact,
  RestrictedUser,
  Group,
  GroupMembership,
  TenantLicense,
  LicenseAssignment,
  DomainEvent,
  Webhook,
  WebhookDelivery,
  WebhookAttempt,
  Integration,
  OAuthClient,
  OAuthAuthorizationCode,
  OAuthToken,
  Device,
  DeviceAction,
  DeviceRecommendationCount,
  SecurityAlert,
  AlertComment,
  EndpointDlpPolicy,
  EndpointDlpAlert,
  BackupSnapshot,
  RestoreJob,
  RestoreJobItem,
  ComplianceConnector,
  ConnectorRun,
  TenantRecommendation,
  RecommendationStatusChange,
  RecommendationApplyOperation,
  RecommendationApplyResult,
  SecureScoreSnapshot,
  BarrierSegment,
  BarrierPolicy,
  BarrierApplication,
  UserImport,
  UserImportRow,
  UserOffboarding,
  EnrollmentRestriction,
  BlockedEnrollmentAttempt,
  TenantGroup,
  TenantGroupMember,
  PortalTenantAggregate,
];

export const ALL_ENTITIES = [
  Organization,
  SimulatedCloudTenant,
  SimulatedCloudObject,
  SimulatedTenantGrant,
  JobWorkerHeartbeat,
  Member,
  AnnouncedSignIn,
  SecretsKeyCheck,
  PortalDirtyTenant,
  DeviceDashboardCount,
  ...SCOPED_ENTITIES,
];
