/**
 * Backup rules in one place (docs/backup.md). The retention window is the backup service's (30 days,
 * src/cloud/backup.provider.ts); a snapshot older than that cannot be restored from even while our catalog
 * still shows it.
 */
export { BACKUP_RETENTION_DAYS, BACKUP_RETENTION_MS } from '../cloud/backup.provider.js';

/** Items sent to the cloud per call; progress is written after each batch. */
export const RESTORE_BATCH_SIZE = 20;
/** At most this many ids in one restore request (a container restore expands further). */
export const MAX_RESTORE_ITEM_IDS = 1000;
/** The export download link works this long after the restore finished. */
export const EXPORT_LINK_TTL_MS = 24 * 3_600_000;
/** Attempts of a restore job before it is marked Failed (graphile-worker retries with back-off). */
export const RESTORE_MAX_ATTEMPTS = 5;
/**
 * A cloud that restores asynchronously (Microsoft 365 Backup's restore sessions) is asked for its progress
 * soon after the start, then less often: a tenth of the time waited so far, between these bounds. The restore
 * fails once it has waited RESTORE_MAX_WAIT_MS since it started (a session that never ends).
 */
export const RESTORE_POLL_MIN_DELAY_MS = 5_000;
export const RESTORE_POLL_MAX_DELAY_MS = 5 * 60_000;
export const RESTORE_MAX_WAIT_MS = 72 * 3_600_000;
