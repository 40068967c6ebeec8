import DataLoader from 'dataloader';
import { dateOfEpochMs } from '../core/iso-time.js';
import { defineLoader } from '../core/loaders.js';
import type { TenantHealthSignals } from './tenant-health.js';

/** The health signals a tenant's stored aggregates carry (docs/tenant-health.md "Where the signals come from"). */
export type StoredHealthSignals = Pick<
  TenantHealthSignals,
  'secureScorePercent' | 'openHighAlerts' | 'devices' | 'nonCompliantDevices' | 'oldestLatestBackupAt'
>;

interface SignalRow {
  tenant_id: string;
  secure_score_percent: number | null;
  open_high_alerts: number;
  devices: number;
  non_compliant_devices: number;
  /** Epoch milliseconds (pg hands raw timestamps over as text). */
  oldest_backup_ms: number | string | null;
}

/**
 * Secure score, open High alerts, device compliance and backup freshness of a page of tenants: one statement reading one
 * stored row per tenant (src/portal/portal-aggregates.ts, through its unique tenant index), so a tenant record
 * shows the health the portal counts, and a page reads O(limit) rows however many alerts, devices and snapshots
 * its tenants hold. A tenant without a row (not counted yet) has none of these signals. Raw SQL (the lean reader
 * does not map the one-to-one tenant key), so the statement names the scope itself.
 */
export const storedHealthSignalsLoader = defineLoader(
  'storedHealthSignals',
  (ctx) =>
    new DataLoader<string, StoredHealthSignals>(async (tenantIds) => {
      const rows = await ctx.em.getConnection().execute<SignalRow[]>(
        `select tenant_id, secure_score_percent, open_high_alerts, devices, non_compliant_devices,
                (extract(epoch from oldest_latest_backup_at) * 1000)::float8 as oldest_backup_ms
           from portal_tenant_aggregates
          where organization_id = ? and environment = ? and tenant_id in (?)`,
        [ctx.scope.organizationId, ctx.scope.environment, [...tenantIds]],
      );
      const byTenant = new Map(rows.map((row) => [row.tenant_id, row]));
      return tenantIds.map((tenantId) => {
        const row = byTenant.get(tenantId);
        if (!row) return {};
        return {
          secureScorePercent: row.secure_score_percent,
          openHighAlerts: row.open_high_alerts,
          devices: row.devices,
          nonCompliantDevices: row.non_compliant_devices,
          oldestLatestBackupAt: dateOfEpochMs(row.oldest_backup_ms),
        };
      });
    }),
);
