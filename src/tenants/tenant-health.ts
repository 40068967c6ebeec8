import { TenantHealth } from './tenant.enums.js';

/**
 * The signals tenant health is computed from (DECISIONS: "open high-severity alerts, secure score,
 * non-compliant devices, failed backups and sync age"). A signal that is absent or null is not known yet and
 * counts as healthy: a tenant without devices or backups has nothing failing there.
 */
export interface TenantHealthSignals {
  lastSyncedAt: Date | null;
  /** Secure score in percent (src/secure-score); null or absent before the tenant's posture is known. */
  secureScorePercent?: number | null;
  /** Open (New or In Progress) High-severity security alerts; a count capped at OPEN_HIGH_ALERTS_CRITICAL is enough. */
  openHighAlerts?: number | null;
  /** The tenant's devices, and those of them whose compliance state is Non-Compliant. */
  devices?: number | null;
  nonCompliantDevices?: number | null;
  /**
   * The oldest of the protected resources' newest snapshots: when the resource whose backups fail longest last
   * had one. Null or absent when the tenant has no protected resource in the backup catalog.
   */
  oldestLatestBackupAt?: Date | null;
}

const HOUR_MS = 60 * 60 * 1000;
export const SYNC_AGE_WARNING_MS = 24 * HOUR_MS;
export const SYNC_AGE_CRITICAL_MS = 72 * HOUR_MS;
export const SECURE_SCORE_WARNING_BELOW = 40;
export const SECURE_SCORE_CRITICAL_BELOW = 20;
/** One open High alert is an incident nobody has closed yet; three at once are an attack in progress. */
export const OPEN_HIGH_ALERTS_WARNING = 1;
export const OPEN_HIGH_ALERTS_CRITICAL = 3;
/** Share of the tenant's devices that are Non-Compliant, in percent (In Grace Period is still being remediated). */
export const NON_COMPLIANT_WARNING_PERCENT = 10;
export const NON_COMPLIANT_CRITICAL_PERCENT = 25;
/**
 * The backup service snapshots every protected resource every 4 hours and the catalog copies them hourly, so
 * a working resource's newest snapshot is at most about 5 hours old: 8 hours means a slot's backup failed;
 * 24 hours without a restore point breaks the one-day recovery point an MSP promises.
 */
export const BACKUP_AGE_WARNING_MS = 8 * HOUR_MS;
export const BACKUP_AGE_CRITICAL_MS = 24 * HOUR_MS;

const RANK: Record<TenantHealth, number> = {
  [TenantHealth.HEALTHY]: 0,
  [TenantHealth.WARNING]: 1,
  [TenantHealth.CRITICAL]: 2,
};

/** CRITICAL at or past `critical`, WARNING at or past `warning`, else HEALTHY (higher is worse). */
function level(value: number, warning: number, critical: number): TenantHealth {
  if (value >= critical) return TenantHealth.CRITICAL;
  if (value >= warning) return TenantHealth.WARNING;
  return TenantHealth.HEALTHY;
}

function syncHealth(lastSyncedAt: Date | null, now: Date): TenantHealth {
  if (!lastSyncedAt) return TenantHealth.CRITICAL;
  return level(now.getTime() - lastSyncedAt.getTime(), SYNC_AGE_WARNING_MS, SYNC_AGE_CRITICAL_MS);
}

function secureScoreHealth(score: number | null | undefined): TenantHealth {
  if (score === null || score === undefined) return TenantHealth.HEALTHY;
  if (score < SECURE_SCORE_CRITICAL_BELOW) return TenantHealth.CRITICAL;
  if (score < SECURE_SCORE_WARNING_BELOW) return TenantHealth.WARNING;
  return TenantHealth.HEALTHY;
}

function deviceHealth(
  devices: number | null | undefined,
  nonCompliant: number | null | undefined,
): TenantHealth {
  if (!devices || !nonCompliant) return TenantHealth.HEALTHY;
  // Compared as integers (nonCompliant × 100 against percent × devices): no rounding at the thresholds.
  return level(
    nonCompliant * 100,
    NON_COMPLIANT_WARNING_PERCENT * devices,
    NON_COMPLIANT_CRITICAL_PERCENT * devices,
  );
}

function backupHealth(oldestLatestBackupAt: Date | null | undefined, now: Date): TenantHealth {
  if (!oldestLatestBackupAt) return TenantHealth.HEALTHY;
  return level(now.getTime() - oldestLatestBackupAt.getTime(), BACKUP_AGE_WARNING_MS, BACKUP_AGE_CRITICAL_MS);
}

/**
 * Portal health of a tenant (DECISIONS "The upstream cloud"), by the table of docs/tenant-health.md: each
 * signal gives healthy, warning or critical, and the worst signal wins.
 */
export function computeTenantHealth(signals: TenantHealthSignals, now: Date): TenantHealth {
  const levels = [
    syncHealth(signals.lastSyncedAt, now),
    secureScoreHealth(signals.secureScorePercent),
    level(signals.openHighAlerts ?? 0, OPEN_HIGH_ALERTS_WARNING, OPEN_HIGH_ALERTS_CRITICAL),
    deviceHealth(signals.devices, signals.nonCompliantDevices),
    backupHealth(signals.oldestLatestBackupAt, now),
  ];
  return levels.reduce((worst, next) => (RANK[next] > RANK[worst] ? next : worst), TenantHealth.HEALTHY);
}
