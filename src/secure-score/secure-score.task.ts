import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { AppDeps } from '../core/service-context.js';
import { computeSecureScore, type ScoredState } from './secure-score.js';
import { dayOf, TENANT_STATES_SQL } from './secure-score.service.js';

export const SECURE_SCORE_SNAPSHOT_TASK = 'secure-score-snapshot';

/**
 * Hourly: the first run of a UTC day records the day, later runs of the same day bring it up to date
 * (the day's row holds the score as last seen that day), so a missed run costs at most an hour.
 */
export const SECURE_SCORE_SNAPSHOT_CRON: CronItem = {
  task: SECURE_SCORE_SNAPSHOT_TASK,
  match: '7 * * * *',
  identifier: SECURE_SCORE_SNAPSHOT_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

const BATCH = 500;

/**
 * Records today's (clock) computed secure score of every tenant that has recommendation states and no score
 * of its cloud's, across organizations, in batches of tenants (one read and one upsert per batch). Idempotent
 * per day.
 */
export async function recordSecureScores(orm: MikroORM, deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const day = dayOf(now);
  const connection = orm.em.getConnection();
  let after = '00000000-0000-0000-0000-000000000000';
  let recorded = 0;
  for (;;) {
    const tenants = await connection.execute<
      Array<{
        id: string;
        organization_id: string;
        environment: string;
        states: ScoredState[];
        cloud_scored: boolean;
      }>
    >(
      `select t.id, t.organization_id, t.environment, ${TENANT_STATES_SQL} as states,
              exists (select 1 from cloud_secure_scores c where c.tenant_id = t.id) as cloud_scored
         from tenants t where t.id > ? order by t.id limit ?`,
      [after, BATCH],
    );
    // A tenant whose cloud keeps its own score (Microsoft 365) gets its days from its sync, on that scale.
    const rows = tenants
      .filter((tenant) => tenant.states.length > 0 && !tenant.cloud_scored)
      .map((tenant) => {
        const { score, maxScore } = computeSecureScore(tenant.states);
        return {
          tenant_id: tenant.id,
          organization_id: tenant.organization_id,
          environment: tenant.environment,
          score,
          max_score: maxScore,
        };
      });
    if (rows.length > 0) {
      await connection.execute(
        `insert into secure_score_snapshots (id, organization_id, environment, tenant_id, day, score, max_score, recorded_at)
         select gen_random_uuid(), r.organization_id, r.environment, r.tenant_id, ?::date, r.score, r.max_score, ?
           from jsonb_to_recordset(?::jsonb) as r(organization_id uuid, environment text, tenant_id uuid, score int, max_score int)
         on conflict (tenant_id, day) do update set score = excluded.score, max_score = excluded.max_score,
           source = excluded.source, recorded_at = excluded.recorded_at`,
        [day, now, JSON.stringify(rows)],
        'run',
      );
      recorded += rows.length;
    }
    if (tenants.length < BATCH) return recorded;
    after = tenants[tenants.length - 1].id;
  }
}

export function secureScoreSnapshotTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    helpers.logger.info(`secure score: ${await recordSecureScores(orm, deps)} tenants recorded`);
  };
}
