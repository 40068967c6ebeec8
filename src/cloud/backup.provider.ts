import type { CloudPages } from './pages.js';

/**
 * The upstream cloud's backup service (SPEC 4.4 "Restore"): point-in-time snapshots of each protected
 * mailbox, personal drive, site and team, their item trees, and restores from them. Part of
 * a tenant's client as `backup` (tenant-cloud.ts); the simulated implementation is in simulated/simulated-backup.ts.
 */
/**
 * How long the backup service keeps a snapshot: older ones are gone (not selectable for a restore) and our
 * catalog drops them (SPEC 4.4 "Restore"; the schema says so in BackupSnapshot.expiresAt).
 */
export const BACKUP_RETENTION_DAYS = 30;
export const BACKUP_RETENTION_MS = BACKUP_RETENTION_DAYS * 24 * 3_600_000;

export type CloudBackupWorkload = 'Mailbox' | 'Personal file storage' | 'Site collaboration' | 'Team chat';

export interface CloudBackupSnapshotRecord {
  /** Stable id of the snapshot in the cloud's backup service. */
  externalId: string;
  workload: CloudBackupWorkload;
  /** The protected mailbox, drive, site or team. */
  resourceExternalId: string;
  resourceName: string;
  /** Mailbox and personal drive: the user who owns it; null for sites and teams. */
  userExternalId: string | null;
  takenAt: string;
  /** Leaf items (messages, files) the snapshot holds; null when the backup service does not say (Microsoft 365 Backup). */
  itemCount: number | null;
}

/** Containers are mailbox folders, drive folders, site libraries and team channels. */
export type CloudBackupItemKind = 'Container' | 'Item';

export interface CloudBackupItemRecord {
  /** Unique within the snapshot's resource and stable across its snapshots. */
  itemId: string;
  parentId: string | null;
  name: string;
  kind: CloudBackupItemKind;
  /** Folder, Message, Library, File, Channel, Chat message. */
  itemType: string;
  path: string;
  sizeBytes: number;
  /** Containers: how many items they hold; items: 0. */
  childCount: number;
  modifiedAt: string;
}

export interface CloudBackupItemPage {
  items: CloudBackupItemRecord[];
  total: number;
}

export type CloudRestoreTargetKind = 'Original location' | 'Different location' | 'Export';
export type CloudConflictPolicy = 'Skip' | 'Overwrite' | 'Keep both';

export interface CloudRestoreRequest {
  /**
   * Idempotency key of the whole restore (our job id): an item already restored under this key is not
   * restored again, its first result is returned instead. This is what lets a job resume after a crash.
   */
  restoreKey: string;
  /**
   * When the restore was accepted (our job's creation): a backup service that keeps restore sessions of its
   * own finds the one it created for this key among those created since, instead of creating another.
   */
  requestedAt: string;
  /** A snapshot of the tenant the client is bound to (the source of the restore). */
  snapshotExternalId: string;
  target: {
    kind: CloudRestoreTargetKind;
    /** The tenant receiving the items (a different one for a cross-tenant restore). */
    tenantExternalId: string;
    /** Different location: the mailbox/drive owner's UPN, /sites/<name> or /teams/<name>, plus a folder. */
    location: string | null;
  };
  conflictPolicy: CloudConflictPolicy;
  itemIds: string[];
}

export interface CloudRestoreItemResult {
  itemId: string;
  /**
   * InProgress: the backup service accepted the item and is still restoring it (a Microsoft 365 Backup restore
   * session runs for minutes to hours); the same request asked again later answers its progress.
   */
  outcome: 'Restored' | 'Skipped' | 'Failed' | 'InProgress';
  /** Why it was skipped or failed, or how a conflict was resolved. */
  detail: string | null;
  /** Where the item now is (null for export and failures). */
  restoredTo: string | null;
  /** Export only: the item as it goes into the archive. */
  exported: Record<string, unknown> | null;
}

/** What a restore will ask of the backup service, checked before anything is written (checkRestore). */
export interface CloudRestorePlan {
  snapshotExternalId: string;
  workload: CloudBackupWorkload;
  targetKind: CloudRestoreTargetKind;
  /** Another tenant receives the items (Cross-tenant). */
  crossTenant: boolean;
  conflictPolicy: CloudConflictPolicy;
  /** The items or containers named; null: the whole mailbox, drive, site or team. */
  itemIds: string[] | null;
}

/**
 * Snapshots older than what a cloud's `listBackupSnapshots` lists, asked for on demand, one resource and one
 * call at a time (Microsoft 365 Backup: its list answers five restore points per query, so the hourly catalog
 * holds its recent days only).
 */
export interface CloudOlderSnapshots {
  /** Where `listBackupSnapshots` stops: snapshots taken before this are listed by `listBefore` only. */
  listedSince(): Date;
  /** The most `listBefore` answers in one call. */
  readonly perCall: number;
  /**
   * The resource's newest snapshots taken in [from, before), at most `perCall` of them, newest first: one call.
   * `resource` is what the catalog knows of it (its name and user are not asked of the cloud again).
   */
  listBefore(
    resource: Pick<
      CloudBackupSnapshotRecord,
      'resourceExternalId' | 'workload' | 'resourceName' | 'userExternalId'
    >,
    from: Date,
    before: Date,
  ): Promise<CloudBackupSnapshotRecord[]>;
}

export interface CloudBackupProvider {
  /** The snapshots within the retention window (the backup service takes one every few hours). */
  listBackupSnapshots(): CloudPages<CloudBackupSnapshotRecord>;
  /** Absent where `listBackupSnapshots` lists the whole retention window (the simulated cloud). */
  readonly olderSnapshots?: CloudOlderSnapshots;
  /** Null when the snapshot does not exist (any more). */
  getBackupSnapshot(snapshotExternalId: string): Promise<CloudBackupSnapshotRecord | null>;
  /** Children of a container (the top-level containers when parentItemId is null); null: no snapshot. */
  listBackupItems(
    snapshotExternalId: string,
    parentItemId: string | null,
    offset: number,
    limit: number,
  ): Promise<CloudBackupItemPage | null>;
  /** The records of these ids in the snapshot (every record when null); ids the snapshot lacks in `missing`. */
  findBackupItems(
    snapshotExternalId: string,
    itemIds: string[] | null,
  ): Promise<{ items: CloudBackupItemRecord[]; missing: string[] }>;
  /**
   * Whether a tenant has the mailbox or drive of this user (`owner` a UPN), or this site or team (`owner`
   * `/sites/<name>`, `/teams/<name>`): where a Different-location restore may put items.
   */
  hasRestoreTarget(workload: CloudBackupWorkload, owner: string): Promise<boolean>;
  /**
   * Resolves when the backup service can carry out such a restore; rejects with CloudError Unsupported naming
   * the capability it lacks (Microsoft 365 Backup restores whole resources only, in place or beside), so the
   * request is refused before a job is written.
   */
  checkRestore(plan: CloudRestorePlan): Promise<void>;
  /**
   * Restores (or exports) leaf items; one result per id, in order. Idempotent per restoreKey and item.
   * A backup service that is unreachable or throttling rejects with a Transient or Throttled CloudError
   * (retry later); one that refuses the restore for good (the snapshot is gone) with Refused.
   */
  restoreBackupItems(request: CloudRestoreRequest): Promise<CloudRestoreItemResult[]>;
}
