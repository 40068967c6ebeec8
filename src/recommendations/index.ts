import type { FeatureModule } from '../core/feature-module.js';
import { RECOMMENDATION_ROUTES } from './recommendation.rest.js';
import { RecommendationApplyOperation, RecommendationApplyResult } from './recommendation-apply.entity.js';
import { RECOMMENDATION_APPLY_TASK } from './recommendation-apply.service.js';
import { recommendationApplyTask } from './recommendation-apply.task.js';
import {
  RECOMMENDATION_SNOOZE_CRON,
  RECOMMENDATION_SNOOZE_TASK,
  recommendationSnoozeTask,
} from './recommendation-snooze.task.js';
import { RecommendationResolver } from './recommendation.resolver.js';
import { RecommendationStatusChange, TenantRecommendation } from './tenant-recommendation.entity.js';
import { recommendationsSyncStep } from './recommendation-reconcile.js';

/** Security recommendations across tenants: apply, dismiss, snooze, reopen (SPEC 4.3). */
export const recommendationsModule: FeatureModule = {
  name: 'recommendations',
  resolvers: [RecommendationResolver],
  entities: [
    TenantRecommendation,
    RecommendationStatusChange,
    RecommendationApplyOperation,
    RecommendationApplyResult,
  ],
  tasks: {
    [RECOMMENDATION_APPLY_TASK]: recommendationApplyTask,
    [RECOMMENDATION_SNOOZE_TASK]: recommendationSnoozeTask,
  },
  crons: [RECOMMENDATION_SNOOZE_CRON],
  routes: { api: RECOMMENDATION_ROUTES },
  eventKinds: ['recommendation.applied'],
  syncStep: recommendationsSyncStep,
};
