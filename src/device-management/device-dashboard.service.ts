import { tenantGroupCondition } from '../tenants/tenant-group-filter.js';
import { DAY_MS } from '../core/clock.js';
import { InvalidRequestError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { ComplianceState, OsPlatform } from '../devices/device.enums.js';
import { TenantService } from '../tenants/tenant.service.js';
import {
  DEFAULT_TREND_DAYS,
  TrendInterval,
  type ComplianceBreakdown,
  type DeviceDashboardArgs,
  type DeviceDashboardSummary,
  type EnrollmentTrend,
  type EnrollmentTrendArgs,
  type PlatformDistribution,
} from './device-dashboard.types.js';

/** SPEC 2.6: the dashboard's platform order and labels. */
const PLATFORMS: Array<{ platform: OsPlatform; label: string }> = [
  { platform: OsPlatform.WINDOWS, label: 'Windows' },
  { platform: OsPlatform.MACOS, label: 'macOS' },
  { platform: OsPlatform.IOS, label: 'iOS/iPadOS' },
  { platform: OsPlatform.ANDROID, label: 'Android' },
  { platform: OsPlatform.LINUX, label: 'Linux' },
];
const STATES = Object.values(ComplianceState);
const MAX_TREND_DAYS = 366 * 2;

interface CountRow {
  os_platform: OsPlatform;
  compliance_state: ComplianceState;
  n: number;
}

function summaryOf(rows: CountRow[]): DeviceDashboardSummary {
  const of = (state: ComplianceState) =>
    rows.filter((row) => row.compliance_state === state).reduce((sum, row) => sum + row.n, 0);
  return {
    total: rows.reduce((sum, row) => sum + row.n, 0),
    compliant: of(ComplianceState.COMPLIANT),
    nonCompliant: of(ComplianceState.NON_COMPLIANT),
    inGracePeriod: of(ComplianceState.IN_GRACE_PERIOD),
    notEvaluated: of(ComplianceState.NOT_EVALUATED),
  };
}

/**
 * Device dashboards (SPEC 2.6 "Dashboard metrics (device)", 4.2; docs/devices.md "Dashboards"): counted in
 * SQL (stored per-tenant counts; the enrollment trend over the devices' enrollment dates), one statement per dashboard (plus the tenant check when one is named), whatever
 * the number of devices or tenants. With a tenant they cover that tenant; without one, every tenant of the
 * organization (as the portal does). The filters platform, ownership and compliance state apply to all.
 */
export class DeviceDashboardService {
  constructor(private readonly ctx: ServiceContext) {}

  async summary(args: DeviceDashboardArgs): Promise<DeviceDashboardSummary> {
    return summaryOf(await this.counts(args));
  }

  async compliance(args: DeviceDashboardArgs): Promise<ComplianceBreakdown> {
    const rows = await this.counts(args);
    return {
      byState: STATES.map((state) => ({
        state,
        count: rows.filter((row) => row.compliance_state === state).reduce((sum, row) => sum + row.n, 0),
      })),
      byPlatform: PLATFORMS.map(({ platform, label }) => ({
        platform,
        label,
        ...summaryOf(rows.filter((row) => row.os_platform === platform)),
      })),
    };
  }

  async platforms(args: DeviceDashboardArgs): Promise<PlatformDistribution> {
    const rows = await this.counts(args);
    const total = rows.reduce((sum, row) => sum + row.n, 0);
    return {
      total,
      platforms: PLATFORMS.map(({ platform, label }) => {
        const count = rows.filter((row) => row.os_platform === platform).reduce((sum, row) => sum + row.n, 0);
        return {
          platform,
          label,
          count,
          percentage: total === 0 ? 0 : Math.round((1000 * count) / total) / 10,
        };
      }),
    };
  }

  /** Enrollments per day or week in [from, to), from the devices' enrollment dates; empty periods count 0. */
  async enrollment(args: EnrollmentTrendArgs): Promise<EnrollmentTrend> {
    const to = args.to ?? this.ctx.clock.now();
    const from = args.from ?? new Date(to.getTime() - DEFAULT_TREND_DAYS * DAY_MS);
    if (from >= to) throw InvalidRequestError.field('from', 'must be before to');
    if (to.getTime() - from.getTime() > MAX_TREND_DAYS * DAY_MS)
      throw InvalidRequestError.field('from', `the range may cover at most ${MAX_TREND_DAYS} days`);
    const filter = await this.filter(args);
    const unit = args.interval === TrendInterval.WEEK ? 'week' : 'day';
    const rows = await this.ctx.em.execute<Array<{ period: string; n: number }>>(
      `select to_char(date_trunc('${unit}', enrolled_at at time zone 'UTC'), 'YYYY-MM-DD') as period,
         count(*)::int as n
       from devices where ${filter.sql} and enrolled_at >= ? and enrolled_at < ? group by 1`,
      [...filter.params, from, to],
    );
    const counts = new Map(rows.map((row) => [row.period, row.n]));
    const points: EnrollmentTrend['points'] = [];
    const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
    if (unit === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
    for (
      let period = start;
      period < to;
      period = new Date(period.getTime() + (unit === 'week' ? 7 : 1) * DAY_MS)
    ) {
      points.push({ periodStart: period, count: counts.get(period.toISOString().slice(0, 10)) ?? 0 });
    }
    return {
      interval: unit === 'week' ? TrendInterval.WEEK : TrendInterval.DAY,
      from,
      to,
      total: points.reduce((sum, point) => sum + point.count, 0),
      points,
    };
  }

  /**
   * Devices matched by the filters, per platform and compliance state: one statement over the per-tenant counts
   * the devices table's triggers keep (device-dashboard-count.entity.ts), never over the devices themselves.
   */
  private async counts(args: DeviceDashboardArgs): Promise<CountRow[]> {
    const filter = await this.filter(args);
    return this.ctx.em.execute<CountRow[]>(
      `select os_platform, compliance_state, sum(devices)::int as n from device_dashboard_counts
        where ${filter.sql} group by os_platform, compliance_state`,
      filter.params,
    );
  }

  /** The where clause of the filters; a named tenant must be the organization's (else 404). */
  private async filter(args: DeviceDashboardArgs): Promise<{ sql: string; params: unknown[] }> {
    const conditions = ['organization_id = ?', 'environment = ?'];
    const params: unknown[] = [this.ctx.scope.organizationId, this.ctx.scope.environment];
    if (args.tenantId) {
      await new TenantService(this.ctx).get(args.tenantId);
      conditions.push('tenant_id = ?');
      params.push(args.tenantId);
    }
    for (const condition of await tenantGroupCondition(this.ctx, args.tenantGroupId)) {
      conditions.push(condition.sql);
      params.push(...condition.params);
    }
    for (const [column, value] of [
      ['os_platform', args.platform],
      ['ownership', args.ownership],
      ['compliance_state', args.complianceState],
    ] as const) {
      if (value) {
        conditions.push(`${column} = ?`);
        params.push(value);
      }
    }
    return { sql: conditions.join(' and '), params };
  }
}
