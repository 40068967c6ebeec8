import {
  TENANT_HEADER,
  TENANT_QUERY_PARAM,
  type RouteDefinition,
  type QueryParamMapping,
} from '../../rest-adapter/route.js';
import { DEFAULT_TREND_DAYS } from './device-dashboard.types.js';

const DASHBOARD_VARIABLES = `$tenantId: UUID, $tenantGroupId: UUID, $platform: OsPlatform, $ownership: DeviceOwnership, $complianceState: ComplianceState`;

const DASHBOARD_ARGS = `tenantId: $tenantId, tenantGroupId: $tenantGroupId, platform: $platform, ownership: $ownership, complianceState: $complianceState`;

const SUMMARY_FIELDS = 'total compliant nonCompliant inGracePeriod notEvaluated';

const DEVICE_DASHBOARD = /* GraphQL */ `
  query DeviceDashboard(${DASHBOARD_VARIABLES}) {
    deviceDashboard(${DASHBOARD_ARGS}) { ${SUMMARY_FIELDS} }
  }
`;

const DEVICE_COMPLIANCE_BREAKDOWN = /* GraphQL */ `
  query DeviceComplianceBreakdown(${DASHBOARD_VARIABLES}) {
    deviceComplianceBreakdown(${DASHBOARD_ARGS}) {
      byState { state count }
      byPlatform { platform label ${SUMMARY_FIELDS} }
    }
  }
`;

const DEVICE_ENROLLMENT_TREND = /* GraphQL */ `
  query DeviceEnrollmentTrend(${DASHBOARD_VARIABLES}, $from: DateTime, $to: DateTime, $interval: TrendInterval) {
    deviceEnrollmentTrend(${DASHBOARD_ARGS}, from: $from, to: $to, interval: $interval) {
      interval from to total points { periodStart count }
    }
  }
`;

const DEVICE_PLATFORM_DISTRIBUTION = /* GraphQL */ `
  query DevicePlatformDistribution(${DASHBOARD_VARIABLES}) {
    devicePlatformDistribution(${DASHBOARD_ARGS}) { total platforms { platform label count percentage } }
  }
`;

const OPTIONAL_TENANT = { [TENANT_HEADER]: { variable: 'tenantId', queryAlias: TENANT_QUERY_PARAM } };

/** The dashboards' SPEC filters; the tenant is optional (absent: every tenant of the organization). */
const DASHBOARD_QUERY: Record<string, QueryParamMapping> = {
  tenantGroupId: { type: 'string' },
  platform: { type: 'string' },
  ownership: { type: 'string' },
  complianceState: { type: 'string' },
};

/**
 * The device-management dashboards (SPEC 4.2), for one tenant (X-Tenant-Id or ?tenantId=) or, without one, every
 * tenant of the organization. Reading needs `read:tenants`.
 */
export const DEVICE_DASHBOARD_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/device-management-vendor/dashboard',
    operation: DEVICE_DASHBOARD,
    headers: OPTIONAL_TENANT,
    query: DASHBOARD_QUERY,
    summary: 'device dashboard summary: total, compliant, nonCompliant, inGracePeriod, notEvaluated',
  },
  {
    method: 'GET',
    path: '/device-management-vendor/dashboard/compliance',
    operation: DEVICE_COMPLIANCE_BREAKDOWN,
    headers: OPTIONAL_TENANT,
    query: DASHBOARD_QUERY,
    summary: 'compliance breakdown by state and by platform',
  },
  {
    method: 'GET',
    path: '/device-management-vendor/dashboard/enrollment',
    operation: DEVICE_ENROLLMENT_TREND,
    headers: OPTIONAL_TENANT,
    query: {
      ...DASHBOARD_QUERY,
      from: { type: 'dateTime' },
      to: { type: 'dateTimeUntil' },
      interval: { type: 'string' },
    },
    summary: `enrollment trend per day or week over [from, to) (default: the last ${DEFAULT_TREND_DAYS} days)`,
  },
  {
    method: 'GET',
    path: '/device-management-vendor/dashboard/platforms',
    operation: DEVICE_PLATFORM_DISTRIBUTION,
    headers: OPTIONAL_TENANT,
    query: DASHBOARD_QUERY,
    summary: 'platform distribution over Windows, macOS, iOS/iPadOS, Android, Linux',
  },
];
