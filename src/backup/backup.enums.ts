import { registerEnumType } from 'type-graphql';

/** SPEC 2.6 "Restore job", 4.4: what is backed up and restored. */
export enum BackupWorkload {
  MAILBOX = 'Mailbox',
  PERSONAL_FILE_STORAGE = 'Personal file storage',
  SITE_COLLABORATION = 'Site collaboration',
  TEAM_CHAT = 'Team chat',
}
registerEnumType(BackupWorkload, {
  name: 'BackupWorkload',
  description: 'Mailbox, Personal file storage, Site collaboration or Team chat (SPEC 4.4)',
});

/** SPEC 4.4: granular item, container, point-in-time (the whole resource), cross-tenant. */
export enum RestoreType {
  GRANULAR_ITEM = 'Granular item',
  CONTAINER = 'Container',
  POINT_IN_TIME = 'Point-in-time',
  CROSS_TENANT = 'Cross-tenant',
}
registerEnumType(RestoreType, {
  name: 'RestoreType',
  description:
    'Granular item (itemIds: messages or files), Container (itemIds: folders, libraries or channels), ' +
    'Point-in-time (the whole mailbox, drive, site or team as in the snapshot), Cross-tenant (into another ' +
    'tenant of the organization)',
});

/** SPEC 4.4: where restored items go. */
export enum RestoreTargetType {
  ORIGINAL_LOCATION = 'Original location',
  DIFFERENT_LOCATION = 'Different location',
  EXPORT = 'Export',
}
registerEnumType(RestoreTargetType, {
  name: 'RestoreTargetType',
  description: 'Original location, Different location (target.location) or Export (a download link)',
});

/** What happens when an item with the same name exists at the target (docs/backup.md). */
export enum ConflictPolicy {
  SKIP = 'Skip',
  OVERWRITE = 'Overwrite',
  KEEP_BOTH = 'Keep both',
}
registerEnumType(ConflictPolicy, {
  name: 'ConflictPolicy',
  description: 'Skip (default: the existing item stays), Overwrite, or Keep both (restored under a new name)',
});

/** DECISIONS: Queued → Running → Completed | Failed | Cancelled, plus CompletedWithErrors (docs/backup.md). */
export enum RestoreJobStatus {
  QUEUED = 'Queued',
  RUNNING = 'Running',
  COMPLETED = 'Completed',
  COMPLETED_WITH_ERRORS = 'CompletedWithErrors',
  FAILED = 'Failed',
  CANCELLED = 'Cancelled',
}
registerEnumType(RestoreJobStatus, {
  name: 'RestoreJobStatus',
  description:
    'Queued, Running, Completed (every item restored or skipped), CompletedWithErrors (some items failed), ' +
    'Failed (nothing could be restored, see failureReason) or Cancelled',
});

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
registerEnumType(RestoreItemStatus, {
  name: 'RestoreItemStatus',
  description:
    'Pending, Restored, Skipped (it exists at the target and the conflict policy is Skip), Failed (with a ' +
    'reason) or Cancelled (the job was cancelled before its turn)',
});

export enum BackupItemKind {
  CONTAINER = 'Container',
  ITEM = 'Item',
}
registerEnumType(BackupItemKind, {
  name: 'BackupItemKind',
  description: 'Container (mailbox folder, drive folder, library, channel) or Item (message, file, post)',
});
