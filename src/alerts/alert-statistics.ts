import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import {
  AlertSeverity,
  AlertStatus,
  HIGH_TARGET_HOURS,
  MEDIUM_TARGET_HOURS,
  OPEN_ALERT_STATUSES,
} from './alert.enums.js';
import type { AlertStatistics } from './alert.types.js';
import { ALERT_MAX_CATEGORIES_LISTED } from '../http/list-bounds.js';

const HOUR_MS = 3_600_000;

/**
 * Every count in ONE statement over the tenant's alerts: one row per (dimension, key). Overdue = open (New
 * or In Progress) and raised before now minus the target, with "now" from the injectable clock.
 */
const STATISTICS_SQL = `
  with a as (
    select severity, category, status, created_at from security_alerts
     where organization_id = ? and environment = ? and tenant_id = ?)
  select 'severity' as dimension, severity as key, count(*)::int as n from a group by severity
  union all select 'category', category, count(*)::int from a group by category
  union all select 'status', status, count(*)::int from a group by status
  union all select 'overdueHigh', null, count(*)::int from a
     where severity = 'High' and status in (?) and created_at < ?
  union all select 'overdueMedium', null, count(*)::int from a
     where severity = 'Medium' and status in (?) and created_at < ?`;

interface Row {
  dimension: 'severity' | 'category' | 'status' | 'overdueHigh' | 'overdueMedium';
  key: string | null;
  n: number;
}

/** GET /api/security/alerts/statistics: counts by severity, category and status, and the overdue alerts. */
export async function alertStatistics(ctx: ServiceContext, tenantId: string): Promise<AlertStatistics> {
  await new TenantService(ctx).get(tenantId);
  const now = ctx.clock.now();
  const open = [...OPEN_ALERT_STATUSES];
  const rows = await ctx.em.execute<Row[]>(STATISTICS_SQL, [
    ctx.scope.organizationId,
    ctx.scope.environment,
    tenantId,
    open,
    new Date(now.getTime() - HIGH_TARGET_HOURS * HOUR_MS),
    open,
    new Date(now.getTime() - MEDIUM_TARGET_HOURS * HOUR_MS),
  ]);
  const counts = (dimension: Row['dimension']) =>
    new Map(rows.filter((row) => row.dimension === dimension).map((row) => [row.key, row.n]));
  const bySeverity = counts('severity');
  const byStatus = counts('status');
  const categories = counts('category');
  const high = counts('overdueHigh').get(null) ?? 0;
  const medium = counts('overdueMedium').get(null) ?? 0;
  return {
    total: [...bySeverity.values()].reduce((sum, n) => sum + n, 0),
    open: open.reduce((sum, status) => sum + (byStatus.get(status) ?? 0), 0),
    bySeverity: Object.values(AlertSeverity).map((severity) => ({
      severity,
      count: bySeverity.get(severity) ?? 0,
    })),
    // Categories are the cloud's words, so the list is cut at the bound the cost analysis counts on.
    byCategory: [...categories]
      .map(([category, count]) => ({ category: category!, count }))
      .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category))
      .slice(0, ALERT_MAX_CATEGORIES_LISTED),
    categoryCount: categories.size,
    byStatus: Object.values(AlertStatus).map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
    overdue: {
      high,
      medium,
      total: high + medium,
      highTargetHours: HIGH_TARGET_HOURS,
      mediumTargetHours: MEDIUM_TARGET_HOURS,
    },
    computedAt: now,
  };
}
