/** The GraphQL operations behind the security-posture routes of SPEC 4.2 (recommendations, secure score, barriers). */
const RECOMMENDATION_FIELDS = /* GraphQL */ `
  id
  title
  severity
  category
  scoreImpact
  implementationGuide
  riskAssessment
  status
  affectedTenants { count tenantIds }
  tenants { tenantId status applySupported snoozedUntil dismissReason statusChangedAt statusChangedBy }
`;

const APPLY_OPERATION_FIELDS = /* GraphQL */ `
  id
  recommendationId
  dryRun
  notifyAdmins
  status
  progress
  counts { total pending wouldApply applied alreadyCompliant notSupported failed }
  results { tenantId outcome reason finishedAt }
  failureReason
  createdAt
  finishedAt
`;

export const LIST_RECOMMENDATIONS = /* GraphQL */ `
  query ListSecurityRecommendations($tenantIds: [UUID!], $severity: [String!], $category: String, $status: String,
      $page: Int, $limit: Int) {
    securityRecommendations(tenantIds: $tenantIds, severity: $severity, category: $category, status: $status,
        page: $page, limit: $limit) {
      items { ${RECOMMENDATION_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const GET_RECOMMENDATION = /* GraphQL */ `
  query GetSecurityRecommendation($id: String!, $tenantIds: [UUID!]) {
    securityRecommendation(id: $id, tenantIds: $tenantIds) { ${RECOMMENDATION_FIELDS} }
  }
`;

export const APPLY_RECOMMENDATION = /* GraphQL */ `
  mutation ApplySecurityRecommendation($id: String!, $tenantIds: [UUID!], $dryRun: Boolean, $notifyAdmins: Boolean,
      $idempotencyKey: String) {
    applySecurityRecommendation(id: $id, tenantIds: $tenantIds, dryRun: $dryRun, notifyAdmins: $notifyAdmins,
        idempotencyKey: $idempotencyKey) { ${APPLY_OPERATION_FIELDS} }
  }
`;

export const GET_APPLY_OPERATION = /* GraphQL */ `
  query GetRecommendationApplyOperation($id: UUID!) {
    recommendationApplyOperation(id: $id) { ${APPLY_OPERATION_FIELDS} }
  }
`;

export const DISMISS_RECOMMENDATION = /* GraphQL */ `
  mutation DismissSecurityRecommendation($id: String!, $tenantIds: [UUID!]!, $reason: String!) {
    dismissSecurityRecommendation(id: $id, tenantIds: $tenantIds, reason: $reason) { ${RECOMMENDATION_FIELDS} }
  }
`;

export const SNOOZE_RECOMMENDATION = /* GraphQL */ `
  mutation SnoozeSecurityRecommendation($id: String!, $tenantIds: [UUID!]!, $days: Int!) {
    snoozeSecurityRecommendation(id: $id, tenantIds: $tenantIds, days: $days) { ${RECOMMENDATION_FIELDS} }
  }
`;

export const REOPEN_RECOMMENDATION = /* GraphQL */ `
  mutation ReopenSecurityRecommendation($id: String!, $tenantIds: [UUID!]!) {
    reopenSecurityRecommendation(id: $id, tenantIds: $tenantIds) { ${RECOMMENDATION_FIELDS} }
  }
`;
