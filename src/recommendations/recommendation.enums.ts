/** SPEC 2.6 "Security recommendation": severity. */
export enum RecommendationSeverity {
  CRITICAL = 'Critical',
  HIGH = 'High',
  MEDIUM = 'Medium',
  LOW = 'Low',
}

/** SPEC 2.6: categories (their short forms Identity, Data, Email, Device, Threat, Audit are accepted in filters). */
export enum RecommendationCategory {
  IDENTITY_AND_ACCESS = 'Identity & Access',
  DATA_PROTECTION = 'Data Protection',
  EMAIL_SECURITY = 'Email Security',
  DEVICE_SECURITY = 'Device Security',
  THREAT_PROTECTION = 'Threat Protection',
  AUDIT_AND_COMPLIANCE = 'Audit & Compliance',
}

/** The short forms SPEC 2.6 names, by category. */
export const CATEGORY_SHORT_FORMS: Record<RecommendationCategory, string> = {
  [RecommendationCategory.IDENTITY_AND_ACCESS]: 'Identity',
  [RecommendationCategory.DATA_PROTECTION]: 'Data',
  [RecommendationCategory.EMAIL_SECURITY]: 'Email',
  [RecommendationCategory.DEVICE_SECURITY]: 'Device',
  [RecommendationCategory.THREAT_PROTECTION]: 'Threat',
  [RecommendationCategory.AUDIT_AND_COMPLIANCE]: 'Audit',
};

/**
 * SPEC 3.3 recommendation states, per tenant. In Progress is set while an apply operation works on the
 * tenant (docs/security-posture.md); the other moves are dismiss, snooze, reopen and the snooze's end.
 */
export enum RecommendationStatus {
  OPEN = 'Open',
  IN_PROGRESS = 'In Progress',
  DISMISSED = 'Dismissed',
  SNOOZED = 'Snoozed',
}

/** SPEC 8.3 "Snooze durations": 7, 30 or 90 days, nothing else. */
export const SNOOZE_DAYS = [7, 30, 90] as const;

/** What applying a recommendation did in one tenant (`would apply` only in a dry run). */
export enum ApplyOutcome {
  PENDING = 'pending',
  WOULD_APPLY = 'would apply',
  APPLIED = 'applied',
  ALREADY_COMPLIANT = 'already compliant',
  NOT_SUPPORTED = 'not supported',
  FAILED = 'failed',
}

/**
 * An apply operation: Queued → Running → Succeeded (no tenant failed) | PartiallyFailed (some did) |
 * Failed (every tenant failed, or the job gave up; failureReason says why). Never Succeeded with a failure.
 */
export enum ApplyOperationStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  SUCCEEDED = 'Succeeded',
  PARTIALLY_FAILED = 'Partially Failed',
  FAILED = 'Failed',
}
