/** The GraphQL operations behind the device management routes of SPEC 4.2 (src/device-management). */
const POLICY_FIELDS = /* GraphQL */ `
  id
  tenantId
  name
  description
  restrictionType
  isDefault
  priority
  version
  assignedToAllUsers
  groupIds
  platformRestrictions {
    platform
    allowed
    corporateAllowed
    personalAllowed
    minOsVersion
    maxOsVersion
    blockedManufacturers
  }
  deviceLimit
  platformLimits { platform limit }
  groupOverrides { groupId deviceLimit }
  createdAt
  updatedAt
`;

export const LIST_ENROLLMENT_RESTRICTIONS = /* GraphQL */ `
  query ListEnrollmentRestrictions($tenantId: UUID!, $page: Int, $limit: Int) {
    enrollmentRestrictions(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${POLICY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_ENROLLMENT_RESTRICTION = /* GraphQL */ `
  mutation CreateEnrollmentRestriction($tenantId: UUID!, $input: CreateEnrollmentRestrictionInput!) {
    createEnrollmentRestriction(tenantId: $tenantId, input: $input) { ${POLICY_FIELDS} }
  }
`;

export const UPDATE_ENROLLMENT_RESTRICTION = /* GraphQL */ `
  mutation UpdateEnrollmentRestriction(
    $tenantId: UUID!
    $id: UUID!
    $input: UpdateEnrollmentRestrictionInput!
    $ifMatch: String
  ) {
    updateEnrollmentRestriction(tenantId: $tenantId, id: $id, input: $input, ifMatch: $ifMatch) { ${POLICY_FIELDS} }
  }
`;

export const REORDER_ENROLLMENT_RESTRICTIONS = /* GraphQL */ `
  mutation ReorderEnrollmentRestrictions($tenantId: UUID!, $policyIds: [UUID!]!) {
    reorderEnrollmentRestrictions(tenantId: $tenantId, policyIds: $policyIds) { ${POLICY_FIELDS} }
  }
`;

export const BLOCKED_ENROLLMENT_ATTEMPTS = /* GraphQL */ `
  query BlockedEnrollmentAttempts(
    $tenantId: UUID!
    $reason: BlockReason
    $platform: EnrollmentPlatform
    $from: DateTime
    $to: DateTime
    $page: Int
    $limit: Int
  ) {
    blockedEnrollmentAttempts(
      tenantId: $tenantId
      reason: $reason
      platform: $platform
      from: $from
      to: $to
      page: $page
      limit: $limit
    ) {
      items {
        id
        tenantId
        userId
        userPrincipalName
        deviceName
        platform
        osVersion
        ownership
        manufacturer
        reason
        detail
        policyId
        policyName
        attemptedAt
        recordedAt
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

const DASHBOARD_VARIABLES = `$tenantId: UUID, $tenantGroupId: UUID, $platform: OsPlatform, $ownership: DeviceOwnership, $complianceState: ComplianceState`;
const DASHBOARD_ARGS = `tenantId: $tenantId, tenantGroupId: $tenantGroupId, platform: $platform, ownership: $ownership, complianceState: $complianceState`;
const SUMMARY_FIELDS = 'total compliant nonCompliant inGracePeriod notEvaluated';

export const DEVICE_DASHBOARD = /* GraphQL */ `
  query DeviceDashboard(${DASHBOARD_VARIABLES}) {
    deviceDashboard(${DASHBOARD_ARGS}) { ${SUMMARY_FIELDS} }
  }
`;

export const DEVICE_COMPLIANCE_BREAKDOWN = /* GraphQL */ `
  query DeviceComplianceBreakdown(${DASHBOARD_VARIABLES}) {
    deviceComplianceBreakdown(${DASHBOARD_ARGS}) {
      byState { state count }
      byPlatform { platform label ${SUMMARY_FIELDS} }
    }
  }
`;

export const DEVICE_ENROLLMENT_TREND = /* GraphQL */ `
  query DeviceEnrollmentTrend(${DASHBOARD_VARIABLES}, $from: DateTime, $to: DateTime, $interval: TrendInterval) {
    deviceEnrollmentTrend(${DASHBOARD_ARGS}, from: $from, to: $to, interval: $interval) {
      interval from to total points { periodStart count }
    }
  }
`;

export const DEVICE_PLATFORM_DISTRIBUTION = /* GraphQL */ `
  query DevicePlatformDistribution(${DASHBOARD_VARIABLES}) {
    devicePlatformDistribution(${DASHBOARD_ARGS}) { total platforms { platform label count percentage } }
  }
`;
