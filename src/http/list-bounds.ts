/**
 * The bound of every list field of the schema that has no `limit` argument (issue #32 item 3: an unpaged
 * list was costed as 10 items while 3,000 comments answered 361 MB). The cost analysis
 * (query-limits.ts) multiplies what such a list selects by its bound here, or by its own
 * `expectedListSize` extension (enrollment restrictions); test/hardening/list-bounds.test.ts fails when a
 * list of objects has neither a `limit` argument nor a bound, or a bound names a field that does not exist.
 *
 * A bound is the most the code ever returns (an enum's size, a cap the service enforces), or, for the few
 * lists that grow with the customer (an organization's tenants, a user's groups), the size we plan for and
 * say so. A list that could grow without limit and be read a hundred times per page is paged instead
 * (SecurityAlert.comments).
 */

/** Tenants of one organization the per-tenant views of one record are costed at (see docs/api.md). */
export const PLANNED_TENANTS_PER_ORGANIZATION = 100;

/** A list as long as an argument of the query says (secure score history: `historyDays`), at most `max`. */
export interface ArgumentBound {
  argument: string;
  /** The argument's default, when the document does not give it. */
  default: number;
  max: number;
}

export const LIST_BOUNDS: Readonly<Record<string, number | ArgumentBound>> = {
  // Enums: one row per value.
  'AlertStatistics.bySeverity': 4,
  'AlertStatistics.byStatus': 4,
  'ComplianceBreakdown.byState': 4,
  'ComplianceBreakdown.byPlatform': 5,
  'PlatformDistribution.platforms': 5,
  'UserOffboarding.steps': 8,
  // Categories the cloud's alerts use (Microsoft Defender has about twenty).
  'AlertStatistics.byCategory': 25,
  // Caps the services enforce.
  'ConnectorUserMapping.mappings': 1000, // MAX_USER_MAPPINGS
  'EnrollmentTrend.points': 732, // MAX_TREND_DAYS, one point per day
  'Device.timeline': 50, // TIMELINE_LENGTH
  // One day per historyDays of secureScores (DEFAULT_HISTORY_DAYS, MAX_HISTORY_DAYS).
  'TenantSecureScore.history': { argument: 'historyDays', default: 30, max: 90 },
  'WebhookDelivery.attempts': 10, // the delivery job's max_attempts
  'ContactImportReport.rows': 1000, // MAX_CSV_ROWS
  // Always empty in a report: a file with an invalid row is refused whole, its problems in the 400.
  'ContactImportRow.errors': 0,
  // One per row of the file (at most MAX_USER_CSV_ROWS): the import is charged by its rows when they are
  // known, after parsing (src/core/job-charges.ts), so the document is not charged for them again.
  'UserImportSubmission.generatedPasswords': 1,
  'Mutation.reorderEnrollmentRestrictions': 50, // the restrictions of one tenant
  'CloudConnection.capabilities': 40, // one per area of MICROSOFT365_CAPABILITIES (26 today)
  // Grow with the customer: planned sizes.
  'SecurityRecommendation.tenants': PLANNED_TENANTS_PER_ORGANIZATION,
  'RecommendationApplyOperationView.results': PLANNED_TENANTS_PER_ORGANIZATION,
  'LicenseIntelligenceSummary.overAllocatedTenants': PLANNED_TENANTS_PER_ORGANIZATION,
  'LicenseIntelligenceSummary.skus': 100, // distinct subscriptions across the organization
  'OverAllocatedTenant.skus': 5, // subscriptions over-allocated in one tenant
  'User.licenseDetails': 25,
  'User.groups': 100,
};
