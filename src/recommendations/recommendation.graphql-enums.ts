/**
 * The GraphQL names and descriptions of the enums of recommendation.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  RecommendationSeverity,
  RecommendationCategory,
  RecommendationStatus,
  ApplyOutcome,
  ApplyOperationStatus,
} from './recommendation.enums.js';

registerEnumType(RecommendationSeverity, {
  name: 'RecommendationSeverity',
  description: 'Critical, High, Medium, Low',
});

registerEnumType(RecommendationCategory, { name: 'RecommendationCategory' });

registerEnumType(RecommendationStatus, {
  name: 'RecommendationStatus',
  description: 'Open, In Progress (an apply is running), Dismissed, Snoozed',
});

registerEnumType(ApplyOutcome, {
  name: 'RecommendationApplyOutcome',
  description:
    'pending, would apply (dry run), applied, already compliant, not supported, failed (with a reason)',
});

registerEnumType(ApplyOperationStatus, {
  name: 'RecommendationApplyStatus',
  description: 'Queued, Running, Succeeded, Partially Failed, Failed',
});
