import { TenantHealth } from './tenant.entity.js';

/** The signals tenant health is computed from; feature areas add theirs here as they arrive. */
export interface TenantHealthSignals {
  lastSyncedAt: Date | null;
  /** Secure score in percent (src/secure-score); null or absent before the tenant's posture is known. */
  secureScorePercent?: number | null;
}

const HOUR_MS = 60 * 60 * 1000;
export const SYNC_AGE_WARNING_MS = 24 * HOUR_MS;
export const SYNC_AGE_CRITICAL_MS = 72 * HOUR_MS;
export const SECURE_SCORE_WARNING_BELOW = 40;
export const SECURE_SCORE_CRITICAL_BELOW = 20;

/**
 * Portal health of a tenant (DECISIONS "The upstream cloud"), documented in docs/tenant-health.md:
 * critical when never synced or not synced for 72 h, or a secure score below 20 %; warning when not synced
 * for 24 h or a secure score below 40 %; otherwise healthy. The worst signal wins.
 */
export function computeTenantHealth(signals: TenantHealthSignals, now: Date): TenantHealth {
  if (!signals.lastSyncedAt) return TenantHealth.CRITICAL;
  const age = now.getTime() - signals.lastSyncedAt.getTime();
  const score = signals.secureScorePercent ?? null;
  if (age >= SYNC_AGE_CRITICAL_MS || (score !== null && score < SECURE_SCORE_CRITICAL_BELOW)) {
    return TenantHealth.CRITICAL;
  }
  if (age >= SYNC_AGE_WARNING_MS || (score !== null && score < SECURE_SCORE_WARNING_BELOW)) {
    return TenantHealth.WARNING;
  }
  return TenantHealth.HEALTHY;
}
