import { type FieldProblem, invalid } from '../core/errors.js';
import {
  CATEGORY_SHORT_FORMS,
  RecommendationCategory,
  RecommendationSeverity,
  RecommendationStatus,
} from './recommendation.enums.js';
import type { RecommendationListArgs } from './recommendation.types.js';

/** The SPEC 4.3 filters once understood: enum values, or absent for "any". */
export interface RecommendationFilter {
  tenantIds?: string[];
  severities?: Set<RecommendationSeverity>;
  category?: RecommendationCategory;
  status?: RecommendationStatus;
}

const normalise = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');

function lookup<T extends string>(values: Record<string, T>): Map<string, T> {
  return new Map(Object.entries(values).map(([key, value]) => [normalise(key), value]));
}

const SEVERITIES = lookup(
  Object.fromEntries(Object.values(RecommendationSeverity).map((v) => [v, v])) as Record<
    string,
    RecommendationSeverity
  >,
);
const STATUSES = lookup(
  Object.fromEntries(Object.values(RecommendationStatus).map((v) => [v, v])) as Record<
    string,
    RecommendationStatus
  >,
);
const CATEGORIES = lookup({
  ...(Object.fromEntries(Object.values(RecommendationCategory).map((v) => [v, v])) as Record<
    string,
    RecommendationCategory
  >),
  ...(Object.fromEntries(
    Object.entries(CATEGORY_SHORT_FORMS).map(([category, short]) => [short, category]),
  ) as Record<string, RecommendationCategory>),
});

/** "critical", "Critical", "in_progress", "In Progress", "identity", "Identity & Access" all read as meant. */
export function parseRecommendationFilter(args: RecommendationListArgs): RecommendationFilter {
  const problems: FieldProblem[] = [];
  const filter: RecommendationFilter = {};
  if (args.tenantIds) filter.tenantIds = [...new Set(args.tenantIds.map((id) => id.toLowerCase()))];
  if (args.severity) {
    filter.severities = new Set();
    args.severity.forEach((text, index) => {
      const severity = SEVERITIES.get(normalise(text));
      if (severity) filter.severities!.add(severity);
      else
        problems.push({ field: `severity.${index}`, problem: 'must be one of critical, high, medium, low' });
    });
  }
  if (args.category !== undefined && args.category !== null) {
    filter.category = CATEGORIES.get(normalise(args.category));
    if (!filter.category) {
      problems.push({
        field: 'category',
        problem: `must be a category or its short form: ${Object.values(CATEGORY_SHORT_FORMS).join(', ')}`,
      });
    }
  }
  if (args.status !== undefined && args.status !== null) {
    filter.status = STATUSES.get(normalise(args.status));
    if (!filter.status)
      problems.push({ field: 'status', problem: 'must be one of open, in progress, dismissed, snoozed' });
  }
  if (problems.length > 0) {
    throw invalid(problems, 'filter');
  }
  return filter;
}
