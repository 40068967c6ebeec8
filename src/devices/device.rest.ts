import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';

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

const LIST_SECURITY_DEVICES = /* GraphQL */ `
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

const DEVICE_SECURITY_RECOMMENDATIONS = /* GraphQL */ `
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

const GET_SECURITY_DEVICE = /* GraphQL */ `
  query GetSecurityDevice($tenantId: UUID!, $id: UUID!) {
    securityDevice(tenantId: $tenantId, id: $id) {
      ${DEVICE_FIELDS}
      timeline { at kind summary status actionId alertId threatsFound durationSeconds }
    }
  }
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

const ISOLATE_DEVICE = /* GraphQL */ `
  mutation IsolateDevice($tenantId: UUID!, $id: UUID!, $input: IsolateDeviceInput!) {
    isolateDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

const SCAN_DEVICE = /* GraphQL */ `
  mutation ScanDevice($tenantId: UUID!, $id: UUID!, $input: ScanDeviceInput!) {
    scanDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

const RELEASE_DEVICE = /* GraphQL */ `
  mutation ReleaseDevice($tenantId: UUID!, $id: UUID!, $input: ReleaseDeviceInput!) {
    releaseDevice(tenantId: $tenantId, id: $id, input: $input) { ${ACTION_FIELDS} }
  }
`;

const DEVICE_ISOLATION_STATUS = /* GraphQL */ `
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

/**
 * Device security, isolation and scans (SPEC 4.2) in the tenant named by X-Tenant-Id (or ?tenantId=). Reading
 * needs `read:tenants`, isolating, releasing and scanning `write:tenants`. `/device-security/recommendations` is a
 * fixed segment served before `/:deviceId`. Several values of a list filter: repeat the parameter or separate them
 * with commas.
 */
export const DEVICE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/security/device-security',
    operation: LIST_SECURITY_DEVICES,
    tenant: 'tenantId',
    query: {
      ...PAGE_QUERY,
      riskLevel: { type: 'stringList' },
      exposureMin: { type: 'int' },
      exposureMax: { type: 'int' },
      osPlatform: { type: 'stringList' },
      healthState: { type: 'stringList' },
      onboardingStatus: { type: 'stringList' },
      search: { type: 'string' },
    },
    summary:
      'list devices with their security status, riskiest first; filters riskLevel, exposureMin/Max, osPlatform, healthState, onboardingStatus, search',
  },
  {
    method: 'GET',
    path: '/security/device-security/recommendations',
    operation: DEVICE_SECURITY_RECOMMENDATIONS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'device security recommendations (title, impact, affected device count), High impact first',
  },
  {
    method: 'GET',
    path: '/security/device-security/:deviceId',
    operation: GET_SECURITY_DEVICE,
    tenant: 'tenantId',
    params: { deviceId: 'id' },
    summary: 'one device with its security details and timeline (isolation actions, scans, alerts)',
  },
  {
    method: 'POST',
    path: '/security/device-security/:deviceId/isolate',
    operation: ISOLATE_DEVICE,
    tenant: 'tenantId',
    params: { deviceId: 'id' },
    body: 'input',
    status: 202,
    summary:
      'isolate a device ({type: "Full isolation"|"Selective isolation", reason, notes}); the same operation as /security/devices/:id/isolate',
  },
  {
    method: 'POST',
    path: '/security/device-security/:deviceId/scan',
    operation: SCAN_DEVICE,
    tenant: 'tenantId',
    params: { deviceId: 'id' },
    body: 'input',
    status: 202,
    summary:
      'run a quick or full antivirus scan ({type: quick|full}) as a job; the result goes to the timeline',
  },
  {
    method: 'POST',
    path: '/security/devices/:id/isolate',
    operation: ISOLATE_DEVICE,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    status: 202,
    summary:
      'isolate a device ({type: "Full isolation"|"Selective isolation", reason, notes}), carried out by a job',
  },
  {
    method: 'POST',
    path: '/security/devices/:id/release',
    operation: RELEASE_DEVICE,
    tenant: 'tenantId',
    params: { id: 'id' },
    body: 'input',
    status: 202,
    summary: 'release an isolated device ({reason, notes?}), carried out by a job',
  },
  {
    method: 'GET',
    path: '/security/devices/:id/isolation-status',
    operation: DEVICE_ISOLATION_STATUS,
    tenant: 'tenantId',
    params: { id: 'id' },
    summary: "a device's isolation state and its last isolation or release action",
  },
];
