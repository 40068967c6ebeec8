import { dateOfEpochMs } from '../core/iso-time.js';
import type { LeanCondition } from '../core/lean-read.js';
import type { ServiceContext } from '../core/service-context.js';
import { tenantGroupCondition } from '../tenants/tenant-group-filter.js';
import { computeTenantHealth } from '../tenants/tenant-health.js';
import { TenantHealth } from '../tenants/tenant.entity.js';
import { INACTIVE_AFTER_DAYS } from './portal-aggregates.js';
import type {
  LicenseIntelligenceSummary,
  LicenseUtilizationTotals,
  PortalTenantStats,
  SkuUtilization,
} from './portal.types.js';
import { SUMMARY_MAX_SKUS } from '../http/list-bounds.js';
import {
  groupOverAllocations,
  overAllocationRows as readOverAllocations,
  type Filter,
} from './license-over-allocation.js';

export { INACTIVE_AFTER_DAYS };

/** pg hands bigint and numeric aggregates over as strings. */
type Numeric = number | string | null;
const toInt = (value: Numeric): number => (value === null ? 0 : Number(value));

/** assigned / total as a percentage with one decimal; 0 when there are no seats (never NaN). */
export function utilizationPercent(assigned: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((assigned / total) * 1000) / 10;
}

interface HealthSignalRow {
  last_synced_ms: Numeric;
  secure_score_percent: number | null;
  open_high_alerts: Numeric;
  devices: Numeric;
  non_compliant_devices: Numeric;
  oldest_backup_ms: Numeric;
  tenants: Numeric;
  as_of: Date | string | null;
}

interface SkuRow {
  is_total: Numeric;
  sku_part_number: string | null;
  name: string | null;
  tenant_count: Numeric;
  total_seats: Numeric;
  assigned_seats: Numeric;
  available_seats: Numeric;
  inactive_assignments: Numeric;
  inactive_users: Numeric;
  as_of: Date | string | null;
}

/**
 * The provider portal (SPEC 4.2, 5.3): read-only overviews across every tenant of the caller's organization
 * and environment (no X-Tenant-Id), optionally one tenant group's. The figures that would need every user and
 * assignment come from the stored per-tenant aggregates (portal-aggregates.ts; docs/portal.md "Aggregates");
 * seats and sync times are small per tenant and read as they are. A read never writes: tenants our own writes
 * marked are recounted by the one-minute job; `dataAsOf` is the oldest recount the answer rests on.
 * The statements are raw SQL, so each one names the scope itself (the ORM's scope filter does not apply).
 */
export class PortalService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Tenants by health (the rule stays in computeTenantHealth, applied per group of equal signals): sync times
   * from the tenants, every other signal from their stored aggregates (a tenant without a row has none yet).
   */
  async tenantStats(tenantGroupId?: string | null): Promise<PortalTenantStats> {
    const tenants = await this.filter('t', tenantGroupId);
    const rows = await this.execute<HealthSignalRow>(
      `select (extract(epoch from t.last_synced_at) * 1000)::float8 as last_synced_ms, a.secure_score_percent,
              a.open_high_alerts, a.devices, a.non_compliant_devices,
              (extract(epoch from a.oldest_latest_backup_at) * 1000)::float8 as oldest_backup_ms,
              count(*) as tenants, min(a.refreshed_at) as as_of
         from tenants t
         left join portal_tenant_aggregates a on a.tenant_id = t.id
        where ${tenants.sql}
        group by 1, 2, 3, 4, 5, 6`,
      tenants.params,
    );
    const now = this.ctx.clock.now();
    const counts: Record<TenantHealth, number> = {
      [TenantHealth.HEALTHY]: 0,
      [TenantHealth.WARNING]: 0,
      [TenantHealth.CRITICAL]: 0,
    };
    let totalTenants = 0;
    for (const row of rows) {
      const count = toInt(row.tenants);
      const health = computeTenantHealth(
        {
          lastSyncedAt: dateOfEpochMs(row.last_synced_ms),
          secureScorePercent: row.secure_score_percent,
          openHighAlerts: toInt(row.open_high_alerts),
          devices: toInt(row.devices),
          nonCompliantDevices: toInt(row.non_compliant_devices),
          oldestLatestBackupAt: dateOfEpochMs(row.oldest_backup_ms),
        },
        now,
      );
      counts[health] += count;
      totalTenants += count;
    }
    return {
      totalTenants,
      healthyCount: counts[TenantHealth.HEALTHY],
      warningCount: counts[TenantHealth.WARNING],
      criticalCount: counts[TenantHealth.CRITICAL],
      dataAsOf: oldest(rows.map((row) => row.as_of)) ?? now,
    };
  }

  /** Seats per SKU and in total, over-allocated tenants, and seats held by inactive users. */
  async licenseIntelligenceSummary(tenantGroupId?: string | null): Promise<LicenseIntelligenceSummary> {
    const licenses = await this.filter('tl', tenantGroupId);
    const now = this.ctx.clock.now();
    const [skuRows, overAllocationRows] = await Promise.all([
      this.skuRows(licenses),
      readOverAllocations((sql, params) => this.execute(sql, params), licenses),
    ]);

    let totals: LicenseUtilizationTotals = emptyTotals();
    const skus: SkuUtilization[] = [];
    for (const row of skuRows) {
      const seats = {
        totalSeats: toInt(row.total_seats),
        assignedSeats: toInt(row.assigned_seats),
        availableSeats: toInt(row.available_seats),
      };
      const utilization = utilizationPercent(seats.assignedSeats, seats.totalSeats);
      if (toInt(row.is_total) === 1) {
        totals = {
          tenants: toInt(row.tenant_count),
          ...seats,
          utilizationPercent: utilization,
          inactiveLicensedUsers: toInt(row.inactive_users),
          inactiveAssignments: toInt(row.inactive_assignments),
        };
      } else {
        skus.push({
          skuPartNumber: row.sku_part_number ?? '',
          name: row.name ?? '',
          tenantCount: toInt(row.tenant_count),
          ...seats,
          utilizationPercent: utilization,
          inactiveLicensedUsers: toInt(row.inactive_assignments),
        });
      }
    }
    const skuCount = skus.length;
    // The bound the cost analysis counts on (list-bounds.ts): the SKUs with the most seats, then by part number.
    skus.sort((a, b) => b.totalSeats - a.totalSeats || byPartNumber(a, b));
    skus.splice(SUMMARY_MAX_SKUS);
    skus.sort(byPartNumber);

    return {
      totals,
      skus,
      skuCount,
      overAllocatedTenants: groupOverAllocations(overAllocationRows),
      overAllocatedTenantCount: toInt(overAllocationRows[0]?.tenant_count ?? 0),
      inactiveAfterDays: INACTIVE_AFTER_DAYS,
      generatedAt: now,
      dataAsOf: oldest(skuRows.map((row) => row.as_of)) ?? now,
    };
  }

  /** The scope (and group) condition on `alias`'s organization, environment and tenant columns. */
  private async filter(alias: 't' | 'tl', tenantGroupId?: string | null): Promise<Filter> {
    const tenantColumn = alias === 't' ? 't.id' : 'tl.tenant_id';
    const inGroup: LeanCondition[] = await tenantGroupCondition(this.ctx, tenantGroupId, tenantColumn);
    return {
      sql: [
        `${alias}.organization_id = ? and ${alias}.environment = ?`,
        ...inGroup.map((c) => `(${c.sql})`),
      ].join(' and '),
      params: [
        this.ctx.scope.organizationId,
        this.ctx.scope.environment,
        ...inGroup.flatMap((c) => c.params),
      ],
    };
  }

  /**
   * One statement: a row per SKU part number and a grand-total row (grouping sets) over the tenants' licenses,
   * with each tenant's stored inactive assignments per SKU joined in and the stored inactive users summed.
   */
  private skuRows(licenses: Filter): Promise<SkuRow[]> {
    return this.execute<SkuRow>(
      `with held as (
         select tl.* from tenant_licenses tl where ${licenses.sql}
       ), aggregates as (
         select a.* from portal_tenant_aggregates a where a.tenant_id in (select distinct tenant_id from held)
       ), inactive_by_sku as (
         select a.tenant_id, s.key::uuid as sku_id, s.value::int as assignments
           from aggregates a cross join jsonb_each_text(a.inactive_by_sku) s
       )
       select grouping(tl.sku_part_number) as is_total,
              tl.sku_part_number,
              min(tl.name) as name,
              count(distinct tl.tenant_id) as tenant_count,
              coalesce(sum(tl.total), 0) as total_seats,
              coalesce(sum(tl.consumed), 0) as assigned_seats,
              coalesce(sum(greatest(tl.total - tl.consumed, 0)), 0) as available_seats,
              coalesce(sum(i.assignments), 0) as inactive_assignments,
              (select coalesce(sum(inactive_licensed_users), 0) from aggregates) as inactive_users,
              (select min(refreshed_at) from aggregates) as as_of
         from held tl
         left join inactive_by_sku i on i.tenant_id = tl.tenant_id and i.sku_id = tl.sku_id
        group by grouping sets ((tl.sku_part_number), ())`,
      licenses.params,
    );
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.ctx.em.getConnection().execute<T[]>(sql, params);
  }
}

const byPartNumber = (a: SkuUtilization, b: SkuUtilization): number =>
  a.skuPartNumber < b.skuPartNumber ? -1 : a.skuPartNumber > b.skuPartNumber ? 1 : 0;

/** The earliest of the recount times (pg may hand timestamps over as text); null when there is none. */
function oldest(values: Array<Date | string | null>): Date | null {
  let earliest: Date | null = null;
  for (const value of values) {
    if (value === null) continue;
    const date =
      value instanceof Date ? value : new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
    if (!earliest || date < earliest) earliest = date;
  }
  return earliest;
}

function emptyTotals(): LicenseUtilizationTotals {
  return {
    tenants: 0,
    totalSeats: 0,
    assignedSeats: 0,
    availableSeats: 0,
    utilizationPercent: 0,
    inactiveLicensedUsers: 0,
    inactiveAssignments: 0,
  };
}
