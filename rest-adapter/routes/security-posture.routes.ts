import {
  APPLY_RECOMMENDATION,
  DISMISS_RECOMMENDATION,
  GET_APPLY_OPERATION,
  GET_RECOMMENDATION,
  LIST_RECOMMENDATIONS,
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
    },
    summary:
      'recommendations affecting at least one tenant, filtered by tenantIds, severity[], category, status',
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
];
