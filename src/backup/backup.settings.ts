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
 * soon after the start, then less often: a tenth of the time waited so far, between the minimum (the server's
 * RESTORE_POLL_MIN_DELAY_MS setting, this by default) and RESTORE_POLL_MAX_DELAY_MS. The restore fails once it
 * has waited RESTORE_MAX_WAIT_MS since it started (a session that never ends).
 */
export const RESTORE_POLL_MIN_DELAY_MS = 5_000;
export const RESTORE_POLL_MAX_DELAY_MS = 5 * 60_000;
export const RESTORE_MAX_WAIT_MS = 72 * 3_600_000;
/**
 * The lowest minimum the setting takes: a look is a call to the backup service and a job of its own, and one
 * queued at once after the last would be a busy loop against it.
 */
export const RESTORE_POLL_MIN_DELAY_FLOOR_MS = 100;

declare module '../core/service-context.js' {
  interface AppDeps {
    /** Restore job settings (RESTORE_POLL_MIN_DELAY_MS); absent: DEFAULT_RESTORE_SETTINGS. */
    restores?: Partial<RestoreSettings>;
  }
}

/**
 * How a restore job follows a cloud that restores asynchronously. An operator may want the first looks sooner
 * (a small tenant's restore sessions end in seconds) or later (fewer calls against the service's budget); tests
 * against the Graph fake (whose restore sessions end after a few reads) look sooner, so a test waits for the
 * job's work, not for the pause between two of its looks.
 */
export interface RestoreSettings {
  /** The shortest pause between two looks at a restore the cloud still reports InProgress. */
  pollMinDelayMs: number;
}

export const DEFAULT_RESTORE_SETTINGS: RestoreSettings = { pollMinDelayMs: RESTORE_POLL_MIN_DELAY_MS };

export function restoreSettingsOf(deps: { restores?: Partial<RestoreSettings> }): RestoreSettings {
  return { ...DEFAULT_RESTORE_SETTINGS, ...deps.restores };
}

/** The pause before the next look, `waitedMs` after the restore started: a tenth of it, within the bounds. */
export function restorePollDelayMs(waitedMs: number, settings: RestoreSettings): number {
  return Math.min(RESTORE_POLL_MAX_DELAY_MS, Math.max(settings.pollMinDelayMs, waitedMs / 10));
}
