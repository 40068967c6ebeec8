import { findPageRows } from '../core/lean-read.js';
import type { Page } from '../core/pagination.js';
import { DAY_MS } from '../core/clock.js';
import type { ServiceContext } from '../core/service-context.js';
import { requireTenants } from '../recommendations/tenant-selection.js';
import type { CloudSecureScores } from '../cloud/security-posture.provider.js';
import {
  computeSecureScore,
  percentageOf,
  type CategoryKey,
  type ScorePart,
  type ScoredState,
  type SecureScoreBreakdown,
} from './secure-score.js';
import { SecureScoreSource } from './secure-score.enums.js';
import type { SecureScoreArgs, TenantSecureScore } from './secure-score.types.js';

/** The states of a tenant's recommendations, folded into one JSON value per tenant row. */
export const TENANT_STATES_SQL = `coalesce((select json_agg(json_build_object('recommendationId', s.recommendation_id,
  'compliant', s.compliant, 'status', s.status)) from tenant_recommendations s where s.tenant_id = t.id), '[]'::json)`;

interface ScoreRow {
  id: string;
  name: string;
  states: ScoredState[];
  /** The score its cloud keeps (Microsoft Secure Score), when it has one. */
  cloud: (ScorePart & Pick<CloudSecureScores, 'byCategory' | 'averages'>) | null;
  history: Array<{ day: string; score: number; maxScore: number }>;
}

/** Microsoft's decimal points as the API's whole points; the percentage is taken from the exact ones. */
const whole = ({ score, maxScore }: ScorePart): ScorePart => ({
  score: Math.round(score),
  maxScore: Math.round(maxScore),
});

function cloudBreakdown(cloud: NonNullable<ScoreRow['cloud']>): SecureScoreBreakdown {
  const byCategory = Object.fromEntries(
    Object.entries(cloud.byCategory).map(([key, part]) => [key, whole(part)]),
  ) as Record<CategoryKey, ScorePart>;
  return { ...whole(cloud), percentage: percentageOf(cloud), byCategory };
}

/** The UTC day of an instant, as YYYY-MM-DD. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Secure score per tenant (SPEC 4.2 /api/security-vendor/secure-score): Microsoft's Secure Score for a tenant
 * whose sync read one (source microsoft365, docs/microsoft365.md), else computed now from the tenant's
 * recommendation states (computeSecureScore) with the daily history the secure-score-snapshot job records.
 * Each answer names its source, and the history holds only days of it. One statement per page whatever its
 * size, and no cloud call.
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
              (select json_build_object('score', c.score, 'maxScore', c.max_score, 'byCategory', c.by_category,
                        'averages', c.averages)
                 from cloud_secure_scores c where c.tenant_id = t.id) as cloud,
              coalesce((select json_agg(json_build_object('day', h.day, 'score', h.score, 'maxScore', h.max_score)
                          order by h.day)
                          from secure_score_snapshots h where h.tenant_id = t.id
                           and h.day >= '${since}'::date
                           and h.source = coalesce((select 'microsoft365' from cloud_secure_scores c
                                                     where c.tenant_id = t.id), 'recommendations')),
                       '[]'::json) as history`, // since: our YYYY-MM-DD
      't',
    );
    return {
      items: rows.map((row) => ({
        tenantId: row.id,
        tenantName: row.name,
        source: row.cloud ? SecureScoreSource.MICROSOFT365 : SecureScoreSource.RECOMMENDATIONS,
        ...(row.cloud ? cloudBreakdown(row.cloud) : computeSecureScore(row.states)),
        history: row.history.map((day) => ({ ...whole(day), day: day.day, percentage: percentageOf(day) })),
        averageComparativeScores: row.cloud?.averages ?? [],
      })),
      pageInfo,
    };
  }
}
