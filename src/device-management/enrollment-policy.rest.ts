import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

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
  cloudDrift
  createdAt
  updatedAt
`;

const LIST_ENROLLMENT_RESTRICTIONS = /* GraphQL */ `
  query ListEnrollmentRestrictions($tenantId: UUID!, $page: Int, $limit: Int) {
    enrollmentRestrictions(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${POLICY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_ENROLLMENT_RESTRICTION = /* GraphQL */ `
  mutation CreateEnrollmentRestriction($tenantId: UUID!, $input: CreateEnrollmentRestrictionInput!) {
    createEnrollmentRestriction(tenantId: $tenantId, input: $input) { ${POLICY_FIELDS} }
  }
`;

const REORDER_ENROLLMENT_RESTRICTIONS = /* GraphQL */ `
  mutation ReorderEnrollmentRestrictions($tenantId: UUID!, $policyIds: [UUID!]!) {
    reorderEnrollmentRestrictions(tenantId: $tenantId, policyIds: $policyIds) { ${POLICY_FIELDS} }
  }
`;

const BLOCKED_ENROLLMENT_ATTEMPTS = /* GraphQL */ `
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

const UPDATE_ENROLLMENT_RESTRICTION = /* GraphQL */ `
  mutation UpdateEnrollmentRestriction(
    $tenantId: UUID!
    $id: UUID!
    $input: UpdateEnrollmentRestrictionInput!
    $ifMatch: String
  ) {
    updateEnrollmentRestriction(tenantId: $tenantId, id: $id, input: $input, ifMatch: $ifMatch) { ${POLICY_FIELDS} }
  }
`;

/**
 * Enrollment restrictions (SPEC 4.2 device management) in the tenant named by X-Tenant-Id (or ?tenantId=).
 * Reading needs `read:tenants`, changing `write:tenants`. `/priority` and `/blocked` come before `/:id`.
 */
export const ENROLLMENT_POLICY_ROUTES: RouteDefinition[] = [
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
    reachesCloud: true,
    summary: 'create restriction policy (placed just above the default); ETag: its version',
  },
  {
    method: 'PUT',
    path: '/devices/enrollment-restrictions/priority',
    operation: REORDER_ENROLLMENT_RESTRICTIONS,
    tenant: 'tenantId',
    body: 'spread',
    reachesCloud: true,
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
      from: { type: 'dateTime' },
      to: { type: 'dateTimeUntil' },
    },
    reachesCloud: true,
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
    reachesCloud: true,
    summary: 'update restriction policy; If-Match: its ETag (412 when changed meanwhile)',
  },
];
