/** SPEC 2.6 "Security alert": severity. */
export enum AlertSeverity {
  HIGH = 'High',
  MEDIUM = 'Medium',
  LOW = 'Low',
  INFORMATIONAL = 'Informational',
}

/** Sort weight of a severity (stored beside it, so "severity" sorts High first with an index). */
export const SEVERITY_RANK: Record<AlertSeverity, number> = {
  [AlertSeverity.HIGH]: 4,
  [AlertSeverity.MEDIUM]: 3,
  [AlertSeverity.LOW]: 2,
  [AlertSeverity.INFORMATIONAL]: 1,
};

/** SPEC 3.1: New, In Progress, Resolved, Dismissed (moves in alert-status.ts). */
export enum AlertStatus {
  NEW = 'New',
  IN_PROGRESS = 'In Progress',
  RESOLVED = 'Resolved',
  DISMISSED = 'Dismissed',
}

/** Open alerts count against the investigation targets of SPEC 8.3. */
export const OPEN_ALERT_STATUSES = [AlertStatus.NEW, AlertStatus.IN_PROGRESS] as const;

/** SPEC 8.3 "Alert investigation targets: High within 1 hour; Medium within 24 hours". */
export const HIGH_TARGET_HOURS = 1;
export const MEDIUM_TARGET_HOURS = 24;

export enum AlertSort {
  NEWEST = 'newest',
  OLDEST = 'oldest',
  SEVERITY = 'severity',
}
