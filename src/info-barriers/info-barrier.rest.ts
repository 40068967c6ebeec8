import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { BARRIER_APPLICATION_HOURS } from './info-barrier.enums.js';
import { OVERLAP_LIST_LIMIT } from './segment-membership.js';

const SEGMENT_FIELDS = /* GraphQL */ `id tenantId name attribute value memberCount createdAt createdBy ${ACTOR_FIELDS}`;

const LIST_SEGMENTS = /* GraphQL */ `
  query ListBarrierSegments($tenantId: UUID!, $page: Int, $limit: Int) {
    barrierSegments(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${SEGMENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_SEGMENT = /* GraphQL */ `
  mutation CreateBarrierSegment($tenantId: UUID!, $input: CreateSegmentInput!) {
    createBarrierSegment(tenantId: $tenantId, input: $input) { ${SEGMENT_FIELDS} }
  }
`;

const POLICY_FIELDS = /* GraphQL */ `id tenantId name type sourceSegmentId targetSegmentIds createdAt createdBy ${ACTOR_FIELDS}`;

const LIST_POLICIES = /* GraphQL */ `
  query ListBarrierPolicies($tenantId: UUID!, $page: Int, $limit: Int) {
    barrierPolicies(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${POLICY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const CREATE_POLICY = /* GraphQL */ `
  mutation CreateBarrierPolicy($tenantId: UUID!, $input: CreateBarrierPolicyInput!) {
    createBarrierPolicy(tenantId: $tenantId, input: $input) { ${POLICY_FIELDS} }
  }
`;

const APPLICATION_FIELDS = /* GraphQL */ `
  id tenantId status startedAt pushedAt appliedAt failureReason segmentCount policyCount requestedBy ${ACTOR_FIELDS}
`;

const APPLY_BARRIERS = /* GraphQL */ `
  mutation ApplyInformationBarriers($tenantId: UUID!) {
    applyInformationBarriers(tenantId: $tenantId) { ${APPLICATION_FIELDS} }
  }
`;

const GET_BARRIER_APPLICATION = /* GraphQL */ `
  query GetInformationBarrierApplication($tenantId: UUID!) {
    informationBarrierApplication(tenantId: $tenantId) { ${APPLICATION_FIELDS} }
  }
`;

/**
 * Information barriers (SPEC 4.2; docs/security-posture.md) in the tenant named by X-Tenant-Id (or ?tenantId=):
 * reading needs `read:tenants`, creating segments and policies and applying them `write:tenants`.
 */
export const INFO_BARRIER_ROUTES: RouteDefinition[] = [
  // Information barriers (SPEC 2.6, 4.4) of the tenant named by X-Tenant-Id (or ?tenantId=).
  {
    method: 'GET',
    path: '/security/info-barriers/segments',
    operation: LIST_SEGMENTS,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'segments, newest first',
  },
  {
    method: 'POST',
    path: '/security/info-barriers/segments',
    operation: CREATE_SEGMENT,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary: `{name, attribute, value}: 409 naming the users (first ${OVERLAP_LIST_LIMIT}, and the count) when it overlaps a segment`,
  },
  {
    method: 'GET',
    path: '/security/info-barriers/policies',
    operation: LIST_POLICIES,
    tenant: 'tenantId',
    query: PAGE_QUERY,
    summary: 'barrier policies, newest first',
  },
  {
    method: 'POST',
    path: '/security/info-barriers/policies',
    operation: CREATE_POLICY,
    tenant: 'tenantId',
    body: 'input',
    status: 201,
    summary: '{name, type: Block | Allow, sourceSegmentId, targetSegmentIds}',
  },
  {
    method: 'POST',
    path: '/security/info-barriers/apply',
    operation: APPLY_BARRIERS,
    tenant: 'tenantId',
    status: 202,
    summary:
      `validate the policy set and start applying it: Pending → Applying → Applied after ${BARRIER_APPLICATION_HOURS} h (or Failed); ` +
      '409 naming the users when segments now share a user',
  },
  {
    method: 'GET',
    path: '/security/info-barriers/apply',
    operation: GET_BARRIER_APPLICATION,
    tenant: 'tenantId',
    summary: 'the latest application and its state (extension); data is null before the first apply',
  },
];
