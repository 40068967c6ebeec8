import { computeSecureScore, type ScoredState } from '../secure-score/secure-score.js';
import { TENANT_STATES_SQL } from '../secure-score/secure-score.service.js';
import { DAY_MS } from '../core/clock.js';
import type { ServiceContext } from '../core/service-context.js';
import { computeTenantHealth } from '../tenants/tenant-health.js';
import { TenantHealth } from '../tenants/tenant.entity.js';
import { AccountStatus } from '../users/user.enums.js';
import type {
  LicenseIntelligenceSummary,
  LicenseUtilizationTotals,
  OverAllocatedTenant,
  PortalTenantStats,
  SkuUtilization,
} from './portal.types.js';

/** A licensed user who is disabled, or has not signed in for this many days, counts as inactive. */
export const INACTIVE_AFTER_DAYS = 30;

/** pg hands bigint and numeric aggregates over as strings. */
type Numeric = number | string | null;
const toInt = (value: Numeric): number => (value === null ? 0 : Number(value));

/** assigned / total as a percentage with one decimal; 0 when there are no seats (never NaN). */
export function utilizationPercent(assigned: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((assigned / total) * 1000) / 10;
}

interface SyncAgeRow {
  last_synced_ms: Numeric;
  states: ScoredState[];
  tenants: Numeric;
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
}

interface OverAllocationRow {
  tenant_id: string;
  tenant_name: string;
  sku_id: string;
  sku_part_number: string;
  name: string;
  total: Numeric;
  consumed: Numeric;
}

/**
 * The provider portal (SPEC 4.2, 5.3): read-only overviews across every tenant of the caller's organization
 * and environment (no X-Tenant-Id). Computed on every read by a fixed number of aggregate statements
 * whatever the number of tenants (one for tenant stats, two for the license summary); see docs/portal.md.
 * The statements are raw SQL, so each one names the scope itself (the ORM's scope filter does not apply).
 */
export class PortalService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Tenants by health. The rule stays in computeTenantHealth: one statement reads each tenant's health
   * signals (grouped, so tenants with equal signals come as one row) and the rule is applied to each row.
   */
  async tenantStats(): Promise<PortalTenantStats> {
    // Tenants with equal signals come as one row: the sync time and, once known, the recommendation states
    // the secure score is computed from (src/secure-score/secure-score.ts).
    const rows = await this.execute<SyncAgeRow>(
      `select last_synced_ms, states, count(*) as tenants
         from (select (extract(epoch from t.last_synced_at) * 1000)::float8 as last_synced_ms,
                      (${TENANT_STATES_SQL})::jsonb as states
                 from tenants t
                where t.organization_id = ? and t.environment = ?) as signals
        group by last_synced_ms, states`,
      [this.ctx.scope.organizationId, this.ctx.scope.environment],
    );
    const now = this.ctx.clock.now();
    const counts: Record<TenantHealth, number> = {
      [TenantHealth.HEALTHY]: 0,
      [TenantHealth.WARNING]: 0,
      [TenantHealth.CRITICAL]: 0,
    };
    let totalTenants = 0;
    for (const row of rows) {
      const lastSyncedAt = row.last_synced_ms === null ? null : new Date(Number(row.last_synced_ms));
      const tenants = toInt(row.tenants);
      const secureScorePercent = computeSecureScore(row.states).percentage;
      counts[computeTenantHealth({ lastSyncedAt, secureScorePercent }, now)] += tenants;
      totalTenants += tenants;
    }
    return {
      totalTenants,
      healthyCount: counts[TenantHealth.HEALTHY],
      warningCount: counts[TenantHealth.WARNING],
      criticalCount: counts[TenantHealth.CRITICAL],
    };
  }

  /** Seats per SKU part number and in total, over-allocated tenants, and seats held by inactive users. */
  async licenseIntelligenceSummary(): Promise<LicenseIntelligenceSummary> {
    const now = this.ctx.clock.now();
    const inactiveSince = new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
    const [skuRows, overAllocationRows] = await Promise.all([
      this.skuRows(inactiveSince),
      this.overAllocationRows(),
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
    skus.sort((a, b) => (a.skuPartNumber < b.skuPartNumber ? -1 : a.skuPartNumber > b.skuPartNumber ? 1 : 0));

    return {
      totals,
      skus,
      overAllocatedTenants: groupOverAllocations(overAllocationRows),
      inactiveAfterDays: INACTIVE_AFTER_DAYS,
      generatedAt: now,
    };
  }

  /**
   * One statement: a row per SKU part number and a grand-total row (grouping sets), with the seats held by
   * inactive users (disabled, or last sign-in — or, never signed in, creation — at least 30 days ago;
   * soft-deleted users excluded) joined in per tenant SKU.
   */
  private skuRows(inactiveSince: Date): Promise<SkuRow[]> {
    const { organizationId, environment } = this.ctx.scope;
    return this.execute<SkuRow>(
      `with inactive as (
         select la.tenant_id, la.sku_id, la.user_id
           from license_assignments la
           join users u on u.id = la.user_id
          where la.organization_id = ? and la.environment = ?
            and u.organization_id = ? and u.environment = ?
            and u.deleted_at is null
            and (u.account_status = ? or coalesce(u.last_sign_in_at, u.created_at) <= ?::timestamptz)
       ), inactive_by_sku as (
         select tenant_id, sku_id, count(*) as assignments from inactive group by tenant_id, sku_id
       )
       select grouping(tl.sku_part_number) as is_total,
              tl.sku_part_number,
              min(tl.name) as name,
              count(distinct tl.tenant_id) as tenant_count,
              coalesce(sum(tl.total), 0) as total_seats,
              coalesce(sum(tl.consumed), 0) as assigned_seats,
              coalesce(sum(greatest(tl.total - tl.consumed, 0)), 0) as available_seats,
              coalesce(sum(i.assignments), 0) as inactive_assignments,
              (select count(distinct inactive.user_id)
                 from inactive
                 join tenant_licenses held
                   on held.tenant_id = inactive.tenant_id and held.sku_id = inactive.sku_id) as inactive_users
         from tenant_licenses tl
         left join inactive_by_sku i on i.tenant_id = tl.tenant_id and i.sku_id = tl.sku_id
        where tl.organization_id = ? and tl.environment = ?
        group by grouping sets ((tl.sku_part_number), ())`,
      [
        organizationId,
        environment,
        organizationId,
        environment,
        AccountStatus.DISABLED,
        inactiveSince.toISOString(),
        organizationId,
        environment,
      ],
    );
  }

  /** One statement: every tenant SKU with more seats assigned than purchased (kept in step by sync). */
  private overAllocationRows(): Promise<OverAllocationRow[]> {
    return this.execute<OverAllocationRow>(
      `select tl.tenant_id, t.name as tenant_name, tl.sku_id, tl.sku_part_number, tl.name, tl.total, tl.consumed
         from tenant_licenses tl
         join tenants t on t.id = tl.tenant_id
        where tl.organization_id = ? and tl.environment = ? and tl.consumed > tl.total
        order by t.name, t.id, tl.sku_part_number, tl.sku_id`,
      [this.ctx.scope.organizationId, this.ctx.scope.environment],
    );
  }

  private execute<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.ctx.em.getConnection().execute<T[]>(sql, params);
  }
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

/** Rows come ordered by tenant, so each tenant's SKUs are consecutive. */
function groupOverAllocations(rows: OverAllocationRow[]): OverAllocatedTenant[] {
  const tenants: OverAllocatedTenant[] = [];
  for (const row of rows) {
    let tenant = tenants.at(-1);
    if (tenant?.tenantId !== row.tenant_id) {
      tenant = { tenantId: row.tenant_id, tenantName: row.tenant_name, skus: [] };
      tenants.push(tenant);
    }
    const totalSeats = toInt(row.total);
    const assignedSeats = toInt(row.consumed);
    tenant.skus.push({
      skuId: row.sku_id,
      skuPartNumber: row.sku_part_number,
      name: row.name,
      totalSeats,
      assignedSeats,
      excessSeats: assignedSeats - totalSeats,
    });
  }
  return tenants;
}
