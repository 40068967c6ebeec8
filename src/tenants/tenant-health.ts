import { TenantHealth } from './tenant.entity.js';

/** The signals tenant health is computed from; feature areas add theirs here as they arrive. */
export interface TenantHealthSignals {
  lastSyncedAt: Date | null;
}

const HOUR_MS = 60 * 60 * 1000;
export const SYNC_AGE_WARNING_MS = 24 * HOUR_MS;
export const SYNC_AGE_CRITICAL_MS = 72 * HOUR_MS;

/**
 * Portal health of a tenant (DECISIONS "The upstream cloud"), documented in docs/tenant-health.md:
 * critical when never synced or not synced for 72 h; warning when not synced for 24 h; otherwise healthy.
 */
export function computeTenantHealth(signals: TenantHealthSignals, now: Date): TenantHealth {
  if (!signals.lastSyncedAt) return TenantHealth.CRITICAL;
  const age = now.getTime() - signals.lastSyncedAt.getTime();
  if (age >= SYNC_AGE_CRITICAL_MS) return TenantHealth.CRITICAL;
  if (age >= SYNC_AGE_WARNING_MS) return TenantHealth.WARNING;
  return TenantHealth.HEALTHY;
}
