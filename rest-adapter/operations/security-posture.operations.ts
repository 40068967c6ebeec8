import { ACTOR_FIELDS } from './actor.fields.js';
/** The GraphQL operations behind the security-posture routes of SPEC 4.2 (recommendations, secure score, barriers). */
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

const RECOMMENDATION_FIELDS = /* GraphQL */ `
  ${RECOMMENDATION_SUMMARY_FIELDS}
  tenants { tenantId status applySupported snoozedUntil dismissReason statusChangedAt statusChangedBy ${ACTOR_FIELDS} }
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
      $page: Int, $limit: Int, $tenantGroupId: UUID) {
    securityRecommendations(tenantIds: $tenantIds, severity: $severity, category: $category, status: $status,
        page: $page, limit: $limit, tenantGroupId: $tenantGroupId) {
      items { ${RECOMMENDATION_SUMMARY_FIELDS} }
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

export const LIST_SECURE_SCORES = /* GraphQL */ `
  query ListSecureScores($tenantIds: [UUID!], $historyDays: Int, $page: Int, $limit: Int) {
    secureScores(tenantIds: $tenantIds, historyDays: $historyDays, page: $page, limit: $limit) {
      items {
        tenantId
        tenantName
        score
        maxScore
        percentage
        byCategory {
          identityAndAccess {
            score
            maxScore
          }
          dataProtection {
            score
            maxScore
          }
          emailSecurity {
            score
            maxScore
          }
          deviceSecurity {
            score
            maxScore
          }
          threatProtection {
            score
            maxScore
          }
          auditAndCompliance {
            score
            maxScore
          }
        }
        history {
          day
          score
          maxScore
          percentage
        }
      }
      pageInfo {
        page
        limit
        total
      }
    }
  }
`;

const SEGMENT_FIELDS = /* GraphQL */ `id tenantId name attribute value memberCount createdAt createdBy ${ACTOR_FIELDS}`;
const POLICY_FIELDS = /* GraphQL */ `id tenantId name type sourceSegmentId targetSegmentIds createdAt createdBy ${ACTOR_FIELDS}`;
const APPLICATION_FIELDS = /* GraphQL */ `
  id tenantId status startedAt pushedAt appliedAt failureReason segmentCount policyCount requestedBy ${ACTOR_FIELDS}
`;

export const LIST_SEGMENTS = /* GraphQL */ `
  query ListBarrierSegments($tenantId: UUID!, $page: Int, $limit: Int) {
    barrierSegments(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${SEGMENT_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_SEGMENT = /* GraphQL */ `
  mutation CreateBarrierSegment($tenantId: UUID!, $input: CreateSegmentInput!) {
    createBarrierSegment(tenantId: $tenantId, input: $input) { ${SEGMENT_FIELDS} }
  }
`;

export const LIST_POLICIES = /* GraphQL */ `
  query ListBarrierPolicies($tenantId: UUID!, $page: Int, $limit: Int) {
    barrierPolicies(tenantId: $tenantId, page: $page, limit: $limit) {
      items { ${POLICY_FIELDS} }
      pageInfo { page limit total }
    }
  }
`;

export const CREATE_POLICY = /* GraphQL */ `
  mutation CreateBarrierPolicy($tenantId: UUID!, $input: CreateBarrierPolicyInput!) {
    createBarrierPolicy(tenantId: $tenantId, input: $input) { ${POLICY_FIELDS} }
  }
`;

export const APPLY_BARRIERS = /* GraphQL */ `
  mutation ApplyInformationBarriers($tenantId: UUID!) {
    applyInformationBarriers(tenantId: $tenantId) { ${APPLICATION_FIELDS} }
  }
`;

export const GET_BARRIER_APPLICATION = /* GraphQL */ `
  query GetInformationBarrierApplication($tenantId: UUID!) {
    informationBarrierApplication(tenantId: $tenantId) { ${APPLICATION_FIELDS} }
  }
`;
