import { RECOMMENDATION_CATALOG } from '../recommendations/recommendation.catalog.js';
import { RecommendationCategory, RecommendationStatus } from '../recommendations/recommendation.enums.js';

/** A tenant's state of one recommendation, as the score reads it. */
export interface ScoredState {
  recommendationId: string;
  compliant: boolean;
  status: RecommendationStatus | string;
}

export interface ScorePart {
  score: number;
  maxScore: number;
}

/** The wire key of each category in `byCategory` (an object, so clients read a category by name). */
export const CATEGORY_KEYS = {
  [RecommendationCategory.IDENTITY_AND_ACCESS]: 'identityAndAccess',
  [RecommendationCategory.DATA_PROTECTION]: 'dataProtection',
  [RecommendationCategory.EMAIL_SECURITY]: 'emailSecurity',
  [RecommendationCategory.DEVICE_SECURITY]: 'deviceSecurity',
  [RecommendationCategory.THREAT_PROTECTION]: 'threatProtection',
  [RecommendationCategory.AUDIT_AND_COMPLIANCE]: 'auditAndCompliance',
} as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[RecommendationCategory];

export interface SecureScoreBreakdown extends ScorePart {
  /** score / maxScore in percent, one decimal; null when nothing counts (no state synced yet). */
  percentage: number | null;
  byCategory: Record<CategoryKey, ScorePart>;
}

const POINTS = new Map(RECOMMENDATION_CATALOG.map((d) => [d.id, d]));

export function percentageOf({ score, maxScore }: ScorePart): number | null {
  return maxScore === 0 ? null : Math.round((1000 * score) / maxScore) / 10;
}

/**
 * The secure score of one tenant (docs/security-posture.md "Score"): every recommendation the tenant
 * meets earns its points; one it does not meet counts in the maximum only; a dismissed one it does not
 * meet leaves the maximum (the risk was accepted: neither earned nor held against the tenant). So applying
 * raises the score and dismissing raises the percentage. The one place the rule is written.
 */
export function computeSecureScore(states: readonly ScoredState[]): SecureScoreBreakdown {
  const byCategory = new Map<RecommendationCategory, ScorePart>(
    Object.values(RecommendationCategory).map((category) => [category, { score: 0, maxScore: 0 }]),
  );
  for (const state of states) {
    const definition = POINTS.get(state.recommendationId);
    if (!definition) continue;
    const part = byCategory.get(definition.category)!;
    if (state.compliant) {
      part.score += definition.scoreImpact;
      part.maxScore += definition.scoreImpact;
    } else if (state.status !== RecommendationStatus.DISMISSED) {
      part.maxScore += definition.scoreImpact;
    }
  }
  const parts = [...byCategory.values()];
  const score = parts.reduce((sum, part) => sum + part.score, 0);
  const maxScore = parts.reduce((sum, part) => sum + part.maxScore, 0);
  const keyed = Object.fromEntries(
    [...byCategory.entries()].map(([category, part]) => [CATEGORY_KEYS[category], part]),
  ) as Record<CategoryKey, ScorePart>;
  return { score, maxScore, percentage: percentageOf({ score, maxScore }), byCategory: keyed };
}
