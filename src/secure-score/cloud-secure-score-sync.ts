import type { CloudSecureScores } from '../cloud/security-posture.provider.js';
import { DAY_MS } from '../core/clock.js';
import type { ServiceContext } from '../core/service-context.js';
import type { SyncStep, SyncTenant } from '../sync/sync-step.js';
import { dayOf } from './secure-score.service.js';
import { MAX_HISTORY_DAYS } from './secure-score.types.js';

/**
 * How many of the cloud's daily scores a sync reads: every day kept (90) the first time, then only the days
 * since the newest one stored, that one included (Microsoft may still revise it): one call of at most 90
 * entries per sync, and usually of one or two.
 */
async function daysToRead(ctx: ServiceContext, tenant: SyncTenant): Promise<number> {
  const [stored] = await ctx.em.execute<Array<{ day: string | null }>>(
    `select to_char(day, 'YYYY-MM-DD') as day from cloud_secure_scores where tenant_id = ?`,
    [tenant.id],
  );
  if (!stored?.day) return MAX_HISTORY_DAYS;
  const since = Math.floor((Date.parse(dayOf(ctx.clock.now())) - Date.parse(stored.day)) / DAY_MS);
  return Math.min(Math.max(since + 1, 1), MAX_HISTORY_DAYS);
}

/** Stores the cloud's score of the tenant and its days (two statements), marking them Microsoft's. */
async function storeCloudScores(
  ctx: ServiceContext,
  tenantId: string,
  scores: CloudSecureScores,
  now: Date,
): Promise<number> {
  const { scope } = ctx;
  const newest = scores.days[0];
  await ctx.em.execute(
    `insert into cloud_secure_scores (id, organization_id, environment, tenant_id, day, score, max_score, by_category,
       averages, read_at)
     values (gen_random_uuid(), ?, ?, ?, ?::date, ?, ?, ?::jsonb, ?::jsonb, ?)
     on conflict (tenant_id) do update set day = coalesce(excluded.day, cloud_secure_scores.day),
       score = excluded.score, max_score = excluded.max_score, by_category = excluded.by_category,
       averages = excluded.averages, read_at = excluded.read_at`,
    [
      scope.organizationId,
      scope.environment,
      tenantId,
      newest?.day ?? null,
      newest?.score ?? 0,
      newest?.maxScore ?? 0,
      JSON.stringify(scores.byCategory),
      JSON.stringify(scores.averages),
      now,
    ],
    'run',
  );
  if (scores.days.length === 0) return 0;
  // A day our job recorded before the tenant moved to Microsoft 365 takes Microsoft's value and scale.
  const days = await ctx.em.execute<{ affectedRows: number }>(
    `insert into secure_score_snapshots (id, organization_id, environment, tenant_id, day, score, max_score, source,
       recorded_at)
     select gen_random_uuid(), ?, ?, ?, d.day, d.score, d.max_score, 'microsoft365', ?
       from jsonb_to_recordset(?::jsonb) as d(day date, score double precision, max_score double precision)
     on conflict (tenant_id, day) do update set score = excluded.score, max_score = excluded.max_score,
       source = excluded.source, recorded_at = excluded.recorded_at
     where (secure_score_snapshots.score, secure_score_snapshots.max_score, secure_score_snapshots.source)
       is distinct from (excluded.score, excluded.max_score, excluded.source)`,
    [
      scope.organizationId,
      scope.environment,
      tenantId,
      now,
      JSON.stringify(scores.days.map((day) => ({ day: day.day, score: day.score, max_score: day.maxScore }))),
    ],
    'run',
  );
  return days.affectedRows;
}

/**
 * The tenant's secure score from its cloud, where the cloud keeps one (Microsoft Secure Score): today's and
 * the daily history, so reading scores asks no cloud (constant SQL per page, no call). A cloud without one
 * (the simulated cloud) leaves the tenant on our computed score: its mark is removed, should the tenant have
 * been on Microsoft 365 before.
 */
export const secureScoreSyncStep: SyncStep = {
  name: 'secure-score',
  after: ['recommendations'],
  inSummary: false,
  async read({ cloud, tenant, ctx }) {
    const read = cloud.securityPosture.readSecureScores;
    const scores = read ? await read(await daysToRead(ctx, tenant)) : null;
    return async (write) => {
      if (!scores) {
        await write.ctx.em.execute(
          `delete from cloud_secure_scores where tenant_id = ?`,
          [write.tenant.id],
          'run',
        );
        return { secureScoreDays: 0 };
      }
      return { secureScoreDays: await storeCloudScores(write.ctx, write.tenant.id, scores, write.now) };
    };
  },
};
