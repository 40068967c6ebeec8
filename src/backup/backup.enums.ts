/** SPEC 2.6 "Restore job", 4.4: what is backed up and restored. */
export enum BackupWorkload {
  MAILBOX = 'Mailbox',
  PERSONAL_FILE_STORAGE = 'Personal file storage',
  SITE_COLLABORATION = 'Site collaboration',
  TEAM_CHAT = 'Team chat',
}

/** SPEC 4.4: granular item, container, point-in-time (the whole resource), cross-tenant. */
export enum RestoreType {
  GRANULAR_ITEM = 'Granular item',
  CONTAINER = 'Container',
  POINT_IN_TIME = 'Point-in-time',
  CROSS_TENANT = 'Cross-tenant',
}

/** SPEC 4.4: where restored items go. */
export enum RestoreTargetType {
  ORIGINAL_LOCATION = 'Original location',
  DIFFERENT_LOCATION = 'Different location',
  EXPORT = 'Export',
}

/** What happens when an item with the same name exists at the target (docs/backup.md). */
export enum ConflictPolicy {
  SKIP = 'Skip',
  OVERWRITE = 'Overwrite',
  KEEP_BOTH = 'Keep both',
}

/** DECISIONS: Queued → Running → Completed | Failed | Cancelled, plus CompletedWithErrors (docs/backup.md). */
export enum RestoreJobStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  COMPLETED = 'Completed',
  COMPLETED_WITH_ERRORS = 'CompletedWithErrors',
  FAILED = 'Failed',
  CANCELLED = 'Cancelled',
}

export const FINISHED_RESTORE_STATUSES: readonly RestoreJobStatus[] = [
  RestoreJobStatus.COMPLETED,
  RestoreJobStatus.COMPLETED_WITH_ERRORS,
  RestoreJobStatus.FAILED,
  RestoreJobStatus.CANCELLED,
];

/** One item of a restore: Pending until its batch ran. */
export enum RestoreItemStatus {
  PENDING = 'Pending',
  RESTORED = 'Restored',
  SKIPPED = 'Skipped',
  FAILED = 'Failed',
  CANCELLED = 'Cancelled',
}

export enum BackupItemKind {
  CONTAINER = 'Container',
  ITEM = 'Item',
}
