import { ACTOR_FIELDS } from './actor.fields.js';
/**
 * The GraphQL operations behind the security routes of SPEC 4.2: alerts, device security, isolation, scans
 * and endpoint DLP. Filters arrive as variables (REST query parameters) and are put together here.
 */
const ALERT_FIELDS = /* GraphQL */ `
  id
  tenantId
  title
  description
  severity
  status
  category
  source
  affectedEntity
  userId
  deviceId
  assignedToId
  assignedTo
  createdAt
  statusChangedAt
  updatedAt
`;

const COMMENT_FIELDS = /* GraphQL */ `
  id
  alertId
  text
  author ${ACTOR_FIELDS}
  authorName
  createdAt
`;

export const LIST_SECURITY_ALERTS = /* GraphQL */ `
  query ListSecurityAlerts(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $severity: [AlertSeverity!]
    $status: [AlertStatus!]
    $category: [String!]
    $source: [String!]
    $assignedTo: [String!]
    $createdFrom: DateTime
    $createdTo: DateTime
    $search: String
    $sort: AlertSort
  ) {
    securityAlerts(
      tenantId: $tenantId
      page: $page
      limit: $limit
      sort: $sort
      filter: {
        severity: $severity
        status: $status
        category: $category
        source: $source
        assignedTo: $assignedTo
        createdFrom: $createdFrom
        createdTo: $createdTo
        search: $search
      }
    ) {
      items { ${ALERT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_SECURITY_ALERT = /* GraphQL */ `
  query GetSecurityAlert($tenantId: UUID!, $id: UUID!) {
    securityAlert(tenantId: $tenantId, id: $id) {
      ${ALERT_FIELDS}
      comments { ${COMMENT_FIELDS} }
    }
  }
`;

export const SECURITY_ALERT_STATISTICS = /* GraphQL */ `
  query SecurityAlertStatistics($tenantId: UUID!) {
    securityAlertStatistics(tenantId: $tenantId) {
      total
      open
      bySeverity {
        severity
        count
      }
      byCategory {
        category
        count
      }
      byStatus {
        status
        count
      }
      overdue {
        high
        medium
        total
        highTargetHours
        mediumTargetHours
      }
      computedAt
    }
  }
`;

export const UPDATE_SECURITY_ALERT = /* GraphQL */ `
  mutation UpdateSecurityAlert($tenantId: UUID!, $id: UUID!, $input: UpdateAlertInput!) {
    updateSecurityAlert(tenantId: $tenantId, id: $id, input: $input) {
      ${ALERT_FIELDS}
      comments { ${COMMENT_FIELDS} }
    }
  }
`;

export const ADD_SECURITY_ALERT_COMMENT = /* GraphQL */ `
  mutation AddSecurityAlertComment($tenantId: UUID!, $id: UUID!, $input: AlertCommentInput!) {
    addSecurityAlertComment(tenantId: $tenantId, id: $id, input: $input) { ${COMMENT_FIELDS} }
  }
`;

const DEVICE_FIELDS = /* GraphQL */ `
  id
  tenantId
  deviceName
  riskLevel
  exposureScore
  osPlatform
  osVersion
  healthState
  onboardingStatus
  lastSeenAt
  ownership
  manufacturer
  model
  enrolledAt
  complianceState
  complianceGraceExpiresAt
  userId
  isolationState
  isolationType
`;

const ACTION_FIELDS = /* GraphQL */ `
  id
  tenantId
  deviceId
  kind
  status
  isolationType
  scanType
  reason
  notes
  requestedBy ${ACTOR_FIELDS}
  requestedAt
  startedAt
  completedAt
  failureReason
  threatsFound
  durationSeconds
`;

export const LIST_SECURITY_DEVICES = /* GraphQL */ `
  query ListSecurityDevices(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $riskLevel: [DeviceRiskLevel!]
    $exposureMin: Int
    $exposureMax: Int
    $osPlatform: [OsPlatform!]
    $healthState: [DeviceHealthState!]
    $onboardingStatus: [OnboardingStatus!]
    $search: String
  ) {
    securityDevices(
      tenantId: $tenantId
      page: $page
      limit: $limit
      filter: {
        riskLevel: $riskLevel
        exposureMin: $exposureMin
        exposureMax: $exposureMax
        osPlatform: $osPlatform
        healthState: $healthState
        onboardingStatus: $onboardingStatus
        search: $search
      }
    ) {
      items { ${DEVICE_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_SECURITY_DEVICE = /* GraphQL */ `
  query GetSecurityDevice($tenantId: UUID!, $id: UUID!) {
    securityDevice(tenantId: $tenantId, id: $id) {
      ${DEVICE_FIELDS}
      timeline { at kind summary status actionId alertId threatsFound durationSeconds }
    }
  }
`;

export const DEVICE_SECURITY_RECOMMENDATIONS = /* GraphQL */ `
  query DeviceSecurityRecommendations($tenantId: UUID!, $page: Int, $limit: Int) {
    deviceSecurityRecommendations(tenantId: $tenantId, page: $page, limit: $limit) {
      items {
        id
        title
        impact
        affectedDeviceCount
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

export const ISOLATE_DEVICE = /* GraphQL */ `
  mutation IsolateDevice($tenantId: UUID!, $id: UUID!, $input: IsolateDeviceInput!) {
    isolateDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

export const RELEASE_DEVICE = /* GraphQL */ `
  mutation ReleaseDevice($tenantId: UUID!, $id: UUID!, $input: ReleaseDeviceInput!) {
    releaseDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

export const SCAN_DEVICE = /* GraphQL */ `
  mutation ScanDevice($tenantId: UUID!, $id: UUID!, $input: ScanDeviceInput!) {
    scanDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

export const DEVICE_ISOLATION_STATUS = /* GraphQL */ `
  query DeviceIsolationStatus($tenantId: UUID!, $id: UUID!) {
    deviceIsolationStatus(tenantId: $tenantId, id: $id) {
      deviceId
      state
      isolationType
      actionInProgress
      lastAction { ${ACTION_FIELDS} }
    }
  }
`;

export const LIST_DLP_POLICIES = /* GraphQL */ `
  query ListEndpointDlpPolicies(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $action: [DlpPolicyAction!]
    $activity: [DlpActivity!]
    $search: String
  ) {
    endpointDlpPolicies(
      tenantId: $tenantId
      page: $page
      limit: $limit
      filter: { action: $action, activity: $activity, search: $search }
    ) {
      items {
        id
        tenantId
        name
        action
        deviceGroups
        monitoredActivities
        enabled
        createdAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

export const LIST_DLP_ALERTS = /* GraphQL */ `
  query ListEndpointDlpAlerts(
    $tenantId: UUID!
    $page: Int
    $limit: Int
    $policyId: [UUID!]
    $activity: [DlpActivity!]
    $actionTaken: [DlpActionTaken!]
    $from: DateTime
    $to: DateTime
  ) {
    endpointDlpAlerts(
      tenantId: $tenantId
      page: $page
      limit: $limit
      filter: { policyId: $policyId, activity: $activity, actionTaken: $actionTaken, from: $from, to: $to }
    ) {
      items {
        id
        tenantId
        policyId
        policyName
        activity
        deviceId
        deviceName
        userId
        userPrincipalName
        fileName
        actionTaken
        occurredAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;
