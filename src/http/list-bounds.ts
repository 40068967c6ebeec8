/**
 * The bound of every list field of the schema that has no `limit` argument (issue #32 item 3: an unpaged
 * list was costed as 10 items while 3,000 comments answered 361 MB). The cost analysis
 * (query-limits.ts) multiplies what such a list selects by its bound here, or by its own
 * `expectedListSize` extension (enrollment restrictions); test/hardening/list-bounds.test.ts fails when a
 * list of objects has neither a `limit` argument nor a bound, or a bound names a field that does not exist.
 *
 * A bound is the most the code ever returns: an enum's size, a cap the service enforces where the data is
 * written (an organization's tenants, a connector's mappings) or where the list is built (the license
 * summary's), so that no data can make a list longer than the cost analysis thinks (issue #32 item 3). A list
 * that could grow without limit and be read a hundred times per page is paged instead (SecurityAlert.comments).
 */

import { MAX_TENANTS_PER_ORGANIZATION } from '../tenants/tenant-limits.js';

/**
 * The license summary's lists come from the customers' clouds (subscriptions we do not choose), so their
 * bounds are enforced where the summary is built (src/portal/portal.service.ts): it lists this many, the
 * largest first, and says how many there are in all (`skuCount`, `overAllocatedTenantCount`, a tenant's
 * `skuCount`).
 */
export const SUMMARY_MAX_SKUS = 100;
export const SUMMARY_MAX_OVER_ALLOCATED_TENANTS = 100;
export const SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT = 5;

/** Likewise a user's licenses and groups (the customer's directory): the first ones, and `licenseCount`, `groupCount`. */
export const USER_MAX_LICENSES_LISTED = 25;
export const USER_MAX_GROUPS_LISTED = 100;
/** Likewise the alert categories of a tenant's statistics (the cloud's words): the most frequent, `categoryCount`. */
export const ALERT_MAX_CATEGORIES_LISTED = 25;

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
  // Categories the cloud's alerts use (Microsoft Defender has about twenty), cut where the statistics are built.
  'AlertStatistics.byCategory': ALERT_MAX_CATEGORIES_LISTED,
  // Caps the services enforce.
  'ConnectorUserMapping.mappings': 1000, // MAX_USER_MAPPINGS
  'EnrollmentTrend.points': 732, // MAX_TREND_DAYS, one point per day
  'Device.timeline': 50, // TIMELINE_LENGTH
  // One day per historyDays of secureScores (DEFAULT_HISTORY_DAYS, MAX_HISTORY_DAYS).
  'TenantSecureScore.history': { argument: 'historyDays', default: 30, max: 90 },
  'TenantSecureScore.averageComparativeScores': 10, // MAX_COMPARATIVE_SCORES, cut where Graph's are read
  'WebhookDelivery.attempts': 20, // MAX_DELIVERY_ATTEMPTS: the schedule's and re-sends, refused past it
  'ContactImportReport.rows': 1000, // MAX_CSV_ROWS
  // Always empty in a report: a file with an invalid row is refused whole, its problems in the 400.
  'ContactImportRow.errors': 0,
  // One per row of the file (at most MAX_USER_CSV_ROWS): the import is charged by its rows when they are
  // known, after parsing (src/core/job-charges.ts), so the document is not charged for them again.
  'UserImportSubmission.generatedPasswords': 1,
  'Mutation.reorderEnrollmentRestrictions': 50, // a tenant's restrictions: MAX_ENROLLMENT_RESTRICTIONS
  'CloudConnection.capabilities': 60, // one per capability of MICROSOFT365_CAPABILITIES (35 today)
  // At most one per capability too (a consent's missing permissions grouped by the areas they disable).
  'TenantCloudPermissions.disabledCapabilities': 60,
  // Grow with the customer: at most the tenants onboarding lets one organization hold (src/tenants/tenant-limits.ts).
  'SecurityRecommendation.tenants': MAX_TENANTS_PER_ORGANIZATION,
  'RecommendationApplyOperationView.results': MAX_TENANTS_PER_ORGANIZATION,
  // Cut where the summary is built, the count beside each (above).
  'LicenseIntelligenceSummary.overAllocatedTenants': SUMMARY_MAX_OVER_ALLOCATED_TENANTS,
  'LicenseIntelligenceSummary.skus': SUMMARY_MAX_SKUS,
  'OverAllocatedTenant.skus': SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT,
  'User.licenseDetails': USER_MAX_LICENSES_LISTED,
  'User.groups': USER_MAX_GROUPS_LISTED,
};
