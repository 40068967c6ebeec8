import { findPageRows } from '../core/lean-read.js';
import type { Page } from '../core/pagination.js';
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
 * One statement per page whatever its size.
 */
export class SecureScoreService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(args: SecureScoreArgs): Promise<Page<TenantSecureScore>> {
    const { scope } = this.ctx;
    const tenantIds = args.tenantIds ? [...new Set(args.tenantIds.map((id) => id.toLowerCase()))] : undefined;
    if (tenantIds) await requireTenants(this.ctx, tenantIds);
    const since = dayOf(new Date(this.ctx.clock.now().getTime() - (args.historyDays - 1) * DAY_MS));
    // An empty list asks for no tenant: an empty page (`in ()` is not SQL; it crashed as a 500, issue #32).
    const filter = !tenantIds ? '' : tenantIds.length === 0 ? ' and false' : ' and t.id in (?)';
    const where = `t.organization_id = ? and t.environment = ?${filter}`;
    const whereParams = [scope.organizationId, scope.environment, ...(tenantIds?.length ? [tenantIds] : [])];
    // The page in name order through tenants_name_index, each page tenant's states and history by its own
    // index, and a separate capped count: a window count read every tenant for each page (issue #11).
    const { rows, pageInfo } = await findPageRows<ScoreRow>(
      this.ctx,
      'tenants',
      { sql: where, params: whereParams },
      't.name, t.id',
      args,
      `t.id, t.name, ${TENANT_STATES_SQL} as states,
              coalesce((select json_agg(json_build_object('day', h.day, 'score', h.score, 'maxScore', h.max_score)
                          order by h.day)
                          from secure_score_snapshots h where h.tenant_id = t.id
                           and h.day >= '${since}'::date), '[]'::json) as history`, // since: our YYYY-MM-DD
      't',
    );
    return {
      items: rows.map((row) => ({
        tenantId: row.id,
        tenantName: row.name,
        ...computeSecureScore(row.states),
        history: row.history.map((day) => ({ ...day, percentage: percentageOf(day) })),
      })),
      pageInfo,
    };
  }
}
