import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';
import { ACTOR_FIELDS } from '../actors/actor.fields.js';
import { SNOOZE_DAYS } from './recommendation.enums.js';

/** The list keeps to the summary (a page of 100 stays well within the query cost limit); the detail adds each tenant. */
const RECOMMENDATION_SUMMARY_FIELDS = /* GraphQL */ `
  id
  title
  severity
  category
  scoreImpact
  implementationGuide
  riskAssessment
  status
  affectedTenants { count tenantIds }
`;

const LIST_RECOMMENDATIONS = /* GraphQL */ `
  query ListSecurityRecommendations($tenantIds: [UUID!], $severity: [String!], $category: String, $status: String,
      $page: Int, $limit: Int, $tenantGroupId: UUID) {
    securityRecommendations(tenantIds: $tenantIds, severity: $severity, category: $category, status: $status,
        page: $page, limit: $limit, tenantGroupId: $tenantGroupId) {
      items { ${RECOMMENDATION_SUMMARY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

const APPLY_OPERATION_FIELDS = /* GraphQL */ `
  id
  recommendationId
  dryRun
  notifyAdmins
  status
  progress
  counts { total pending wouldApply applied alreadyCompliant notSupported failed }
  results { tenantId outcome reason finishedAt cloudWaitMs }
  failureReason
  createdAt
  finishedAt
`;

const GET_APPLY_OPERATION = /* GraphQL */ `
  query GetRecommendationApplyOperation($id: UUID!) {
    recommendationApplyOperation(id: $id) { ${APPLY_OPERATION_FIELDS} }
  }
`;

const RECOMMENDATION_FIELDS = /* GraphQL */ `
  ${RECOMMENDATION_SUMMARY_FIELDS}
  tenants { tenantId status applySupported snoozedUntil dismissReason statusChangedAt statusChangedBy ${ACTOR_FIELDS} }
`;

const GET_RECOMMENDATION = /* GraphQL */ `
  query GetSecurityRecommendation($id: String!, $tenantIds: [UUID!]) {
    securityRecommendation(id: $id, tenantIds: $tenantIds) { ${RECOMMENDATION_FIELDS} }
  }
`;

const APPLY_RECOMMENDATION = /* GraphQL */ `
  mutation ApplySecurityRecommendation($id: String!, $tenantIds: [UUID!], $dryRun: Boolean, $notifyAdmins: Boolean,
      $idempotencyKey: String) {
    applySecurityRecommendation(id: $id, tenantIds: $tenantIds, dryRun: $dryRun, notifyAdmins: $notifyAdmins,
        idempotencyKey: $idempotencyKey) { ${APPLY_OPERATION_FIELDS} }
  }
`;

const DISMISS_RECOMMENDATION = /* GraphQL */ `
  mutation DismissSecurityRecommendation($id: String!, $tenantIds: [UUID!]!, $reason: String!) {
    dismissSecurityRecommendation(id: $id, tenantIds: $tenantIds, reason: $reason) { ${RECOMMENDATION_FIELDS} }
  }
`;

const SNOOZE_RECOMMENDATION = /* GraphQL */ `
  mutation SnoozeSecurityRecommendation($id: String!, $tenantIds: [UUID!]!, $days: Int!) {
    snoozeSecurityRecommendation(id: $id, tenantIds: $tenantIds, days: $days) { ${RECOMMENDATION_FIELDS} }
  }
`;

const REOPEN_RECOMMENDATION = /* GraphQL */ `
  mutation ReopenSecurityRecommendation($id: String!, $tenantIds: [UUID!]!) {
    reopenSecurityRecommendation(id: $id, tenantIds: $tenantIds) { ${RECOMMENDATION_FIELDS} }
  }
`;

/**
 * Security recommendations (SPEC 4.2, 4.3; docs/security-posture.md), across the organization's tenants (no
 * X-Tenant-Id): reading needs `read:tenants`, changing `write:tenants`. The dismiss, snooze, reopen and
 * apply-operation routes are documented extensions (SPEC 3.3 names the moves, not their paths).
 */
export const RECOMMENDATION_ROUTES: RouteDefinition[] = [
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
      '{tenantIds, dryRun, notifyAdmins}: 202 with the queued apply operation (a dry run is one too: its job previews and changes nothing)',
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
    summary: `{tenantIds, days: ${SNOOZE_DAYS.join(' | ')}}: Open → Snoozed, Open again when the period ends (extension)`,
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
