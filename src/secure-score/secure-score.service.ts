import type { Page } from '../core/pagination.js';
import { pageOffset } from '../core/pagination.js';
import { DAY_MS } from '../core/clock.js';
import type { ServiceContext } from '../core/service-context.js';
import { requireTenants } from '../recommendations/tenant-selection.js';
import { computeSecureScore, percentageOf, type ScoredState } from './secure-score.js';
import type { SecureScoreArgs, TenantSecureScore } from './secure-score.types.js';

/** The states of a tenant's recommendations, folded into one JSON value per tenant row. */
export const TENANT_STATES_SQL = `coalesce((select json_agg(json_build_object('recommendationId', s.recommendation_id,
  'compliant', s.compliant, 'status', s.status)) from tenant_recommendations s where s.tenant_id = t.id), '[]'::json)`;

interface ScoreRow {
  id: string;
  name: string;
  total: string;
  states: ScoredState[];
  history: Array<{ day: string; score: number; maxScore: number }>;
}

/** The UTC day of an instant, as YYYY-MM-DD. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Secure score per tenant (SPEC 4.2 /api/security-vendor/secure-score): computed now from the tenants'
 * recommendation states (computeSecureScore), with the daily history the secure-score-snapshot job records.
 * One statement per page whatever its size (a second only for a page past the end).
 */
export class SecureScoreService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(args: SecureScoreArgs): Promise<Page<TenantSecureScore>> {
    const { scope } = this.ctx;
    const tenantIds = args.tenantIds ? [...new Set(args.tenantIds.map((id) => id.toLowerCase()))] : undefined;
    if (tenantIds) await requireTenants(this.ctx, tenantIds);
    const since = dayOf(new Date(this.ctx.clock.now().getTime() - (args.historyDays - 1) * DAY_MS));
    const where = `t.organization_id = ? and t.environment = ?${tenantIds ? ' and t.id in (?)' : ''}`;
    const whereParams = [scope.organizationId, scope.environment, ...(tenantIds ? [tenantIds] : [])];
    const connection = this.ctx.em.getConnection();
    const rows = await connection.execute<ScoreRow[]>(
      `select t.id, t.name, count(*) over () as total, ${TENANT_STATES_SQL} as states,
              coalesce((select json_agg(json_build_object('day', h.day, 'score', h.score, 'maxScore', h.max_score)
                          order by h.day)
                          from secure_score_snapshots h where h.tenant_id = t.id and h.day >= ?::date), '[]'::json) as history
         from tenants t where ${where}
        order by t.name, t.id limit ? offset ?`,
      [since, ...whereParams, args.limit, pageOffset(args)],
    );
    let total = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && pageOffset(args) > 0) {
      const [count] = await connection.execute<Array<{ total: string }>>(
        `select count(*) as total from tenants t where ${where}`,
        whereParams,
      );
      total = Number(count.total);
    }
    return {
      items: rows.map((row) => ({
        tenantId: row.id,
        tenantName: row.name,
        ...computeSecureScore(row.states),
        history: row.history.map((day) => ({ ...day, percentage: percentageOf(day) })),
      })),
      pageInfo: { page: args.page, limit: args.limit, total },
    };
  }
}
