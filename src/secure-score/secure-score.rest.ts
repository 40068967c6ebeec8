import { PAGE_QUERY, type RouteDefinition } from '../../rest-adapter/route.js';

const LIST_SECURE_SCORES = /* GraphQL */ `
  query ListSecureScores($tenantIds: [UUID!], $historyDays: Int, $page: Int, $limit: Int) {
    secureScores(tenantIds: $tenantIds, historyDays: $historyDays, page: $page, limit: $limit) {
      items {
        tenantId
        tenantName
        source
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
        averageComparativeScores {
          basis
          averageScore
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

/**
 * The secure score across the organization's tenants (SPEC 4.3; docs/security-posture.md), no X-Tenant-Id:
 * reading needs `read:tenants`.
 */
export const SECURE_SCORE_ROUTES: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/security-vendor/secure-score',
    operation: LIST_SECURE_SCORES,
    query: { ...PAGE_QUERY, tenantIds: { type: 'stringList' }, historyDays: { type: 'int' } },
    summary:
      'secure score per tenant (needs msp:read): its source (our computed score, or Microsoft Secure Score on Microsoft 365), score, maxScore, percentage, byCategory, daily history',
  },
];
