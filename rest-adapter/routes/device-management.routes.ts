import {
  BLOCKED_ENROLLMENT_ATTEMPTS,
  CREATE_ENROLLMENT_RESTRICTION,
  DEVICE_COMPLIANCE_BREAKDOWN,
  DEVICE_DASHBOARD,
  DEVICE_ENROLLMENT_TREND,
  DEVICE_PLATFORM_DISTRIBUTION,
  LIST_ENROLLMENT_RESTRICTIONS,
  REORDER_ENROLLMENT_RESTRICTIONS,
  UPDATE_ENROLLMENT_RESTRICTION,
} from '../operations/device-management.operations.js';
import {
  PAGE_QUERY,
  TENANT_HEADER,
  TENANT_QUERY_PARAM,
  type QueryParamMapping,
  type RouteDefinition,
} from '../route.js';

/** The dashboards' SPEC filters; the tenant is optional (absent: every tenant of the organization). */
const DASHBOARD_QUERY: Record<string, QueryParamMapping> = {
  tenantGroupId: { type: 'string' },
  platform: { type: 'string' },
  ownership: { type: 'string' },
  complianceState: { type: 'string' },
};
const OPTIONAL_TENANT = { [TENANT_HEADER]: { variable: 'tenantId', queryAlias: TENANT_QUERY_PARAM } };

/**
 * Device management (SPEC 4.2): enrollment restrictions in the tenant named by X-Tenant-Id (or ?tenantId=),
 * and the device dashboards, for one tenant or (without X-Tenant-Id) every tenant of the organization.
 * Reading needs `read:tenants`, changing `write:tenants`. `/priority` and `/blocked` come before `/:id`.
 */
export const DEVICE_MANAGEMENT_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/devices/enrollment-restrictions',
    operation: LIST_ENROLLMENT_RESTRICTIONS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'list restriction policies in priority order, the built-in default last (paginated)',
  },
  {
    method: 'POST',
    path: '/devices/enrollment-restrictions',
    operation: CREATE_ENROLLMENT_RESTRICTION,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    etag: 'version',
    summary: 'create restriction policy (placed just above the default); ETag: its version',
  },
  {
    method: 'PUT',
    path: '/devices/enrollment-restrictions/priority',
    operation: REORDER_ENROLLMENT_RESTRICTIONS,
    tenant: 'tenantId',
    body: 'spread',
    summary:
      'update policy priority order: { policyIds } naming every non-default policy once (else 400/409)',
  },
  {
    method: 'GET',
    path: '/devices/enrollment-restrictions/blocked',
    operation: BLOCKED_ENROLLMENT_ATTEMPTS,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      reason: { type: 'string' },
      platform: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
    },
    summary: 'blocked enrollment attempts, newest first; filters reason, platform, from, to',
  },
  {
    method: 'PUT',
    path: '/devices/enrollment-restrictions/:id',
    operation: UPDATE_ENROLLMENT_RESTRICTION,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    headers: { 'If-Match': { variable: 'ifMatch' } },
    etag: 'version',
    summary: 'update restriction policy; If-Match: its ETag (412 when changed meanwhile)',
  },
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
      from: { type: 'string' },
      to: { type: 'string' },
      interval: { type: 'string' },
    },
    summary: 'enrollment trend per day or week over [from, to) (default: the last 30 days)',
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
