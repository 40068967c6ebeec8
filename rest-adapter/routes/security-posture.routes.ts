import {
  APPLY_BARRIERS,
  APPLY_RECOMMENDATION,
  CREATE_POLICY,
  CREATE_SEGMENT,
  GET_BARRIER_APPLICATION,
  LIST_POLICIES,
  LIST_SEGMENTS,
  DISMISS_RECOMMENDATION,
  GET_APPLY_OPERATION,
  GET_RECOMMENDATION,
  LIST_RECOMMENDATIONS,
  LIST_SECURE_SCORES,
  REOPEN_RECOMMENDATION,
  SNOOZE_RECOMMENDATION,
} from '../operations/security-posture.operations.js';
import { PAGE_QUERY, type RouteDefinition } from '../route.js';

/**
 * Security posture (SPEC 4.2, 4.3; docs/security-posture.md). Recommendations act across the organization's
 * tenants (no X-Tenant-Id): reading needs `read:tenants`, changing `write:tenants`. The dismiss, snooze,
 * reopen and apply-operation routes are documented extensions (SPEC 3.3 names the moves, not their paths).
 */
export const SECURITY_POSTURE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/security/recommendations',
    operation: LIST_RECOMMENDATIONS,
    // SPEC 4.3: the filters come as a JSON body on this GET; the same names work as query parameters.
    body: 'spread',
    query: {
      ...PAGE_QUERY,
      tenantIds: { type: 'stringList' },
      severity: { type: 'stringList' },
      category: { type: 'string' },
      status: { type: 'string' },
      tenantGroupId: { type: 'string' },
    },
    summary:
      'recommendations affecting at least one tenant, filtered by tenantIds, tenantGroupId, severity[], category, status',
  },
  {
    method: 'GET',
    path: '/security/recommendations/apply-operations/:operationId',
    operation: GET_APPLY_OPERATION,
    params: { operationId: 'id' },
    summary: 'an apply operation: status, progress, per-tenant results (extension)',
  },
  {
    method: 'GET',
    path: '/security/recommendations/:id',
    operation: GET_RECOMMENDATION,
    params: { id: 'id' },
    query: { tenantIds: { type: 'stringList' } },
    summary: 'one recommendation with its affected tenants (extension)',
  },
  {
    method: 'POST',
    path: '/security/recommendations/:id/apply',
    operation: APPLY_RECOMMENDATION,
    params: { id: 'id' },
    body: 'spread',
    headers: { 'Idempotency-Key': { variable: 'idempotencyKey' } },
    status: 202,
    summary:
      '{tenantIds, dryRun, notifyAdmins}: 202 with the apply operation (a dry run answers its preview)',
  },
  {
    method: 'POST',
    path: '/security/recommendations/:id/dismiss',
    operation: DISMISS_RECOMMENDATION,
    params: { id: 'id' },
    body: 'spread',
    summary: '{tenantIds, reason}: Open → Dismissed, kept for audit (extension)',
  },
  {
    method: 'POST',
    path: '/security/recommendations/:id/snooze',
    operation: SNOOZE_RECOMMENDATION,
    params: { id: 'id' },
    body: 'spread',
    summary: '{tenantIds, days: 7 | 30 | 90}: Open → Snoozed, Open again when the period ends (extension)',
  },
  {
    method: 'POST',
    path: '/security/recommendations/:id/reopen',
    operation: REOPEN_RECOMMENDATION,
    params: { id: 'id' },
    body: 'spread',
    summary: '{tenantIds}: Dismissed or Snoozed → Open (extension)',
  },
  {
    method: 'GET',
    path: '/security-vendor/secure-score',
    operation: LIST_SECURE_SCORES,
    query: { ...PAGE_QUERY, tenantIds: { type: 'stringList' }, historyDays: { type: 'int' } },
    summary:
      'secure score per tenant (needs msp:read): score, maxScore, percentage, byCategory, daily history',
  },
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
    summary:
      '{name, attribute, value}: 409 naming the users (first 50, and the count) when it overlaps a segment',
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
      'validate the policy set and start applying it: Pending → Applying → Applied after 24 h (or Failed); ' +
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
