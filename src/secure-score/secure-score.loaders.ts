import DataLoader from 'dataloader';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { findLeanIn } from '../core/lean-read.js';
import { TenantRecommendation } from '../recommendations/tenant-recommendation.entity.js';
import { computeSecureScore } from './secure-score.js';

/** A tenant's secure score in percent (null before its posture is known), batched per request. */
export const secureScorePercentLoader = defineLoader(
  'secureScorePercent',
  (ctx) =>
    new DataLoader<string, number | null>(async (tenantIds) => {
      const states = await findLeanIn(ctx, TenantRecommendation, 'tenantId', tenantIds);
      return groupByKey(tenantIds, states, (state) => state.tenantId).map(
        (tenantStates) => computeSecureScore(tenantStates).percentage,
      );
    }),
);
