import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { AppDeps } from '../core/service-context.js';

export const RECOMMENDATION_SNOOZE_TASK = 'recommendation-snooze-expiry';

/** Every 5 minutes on one process of the fleet: a snooze ends at most 5 minutes late. */
export const RECOMMENDATION_SNOOZE_CRON: CronItem = {
  task: RECOMMENDATION_SNOOZE_TASK,
  match: '*/5 * * * *',
  identifier: RECOMMENDATION_SNOOZE_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

export const SNOOZE_EXPIRY_ACTOR = 'system:snooze-expiry';

/**
 * SPEC 3.3 "reappears after the period": every snooze whose end has come (by the clock) goes back to Open,
 * across organizations, in one statement that also writes each move to the audit trail. Running it twice
 * is harmless (the second run finds nothing).
 */
export async function expireSnoozes(orm: MikroORM, deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const rows = await orm.em.getConnection().execute<Array<{ n: string }>>(
    `with reopened as (
       update tenant_recommendations set status = 'Open', snoozed_until = null, status_changed_by = ?,
              status_changed_at = ?, updated_at = ?
        where status = 'Snoozed' and snoozed_until <= ?
        returning organization_id, environment, tenant_id, recommendation_id
     ), audited as (
       insert into recommendation_status_changes (id, organization_id, environment, tenant_id, recommendation_id,
              from_status, to_status, changed_by, changed_at)
       select gen_random_uuid(), organization_id, environment, tenant_id, recommendation_id, 'Snoozed', 'Open', ?, ?
         from reopened
       returning 1
     )
     select count(*) as n from audited`,
    [SNOOZE_EXPIRY_ACTOR, now, now, now, SNOOZE_EXPIRY_ACTOR, now],
  );
  return Number(rows[0].n);
}

export function recommendationSnoozeTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const reopened = await expireSnoozes(orm, deps);
    if (reopened > 0) helpers.logger.info(`snooze expiry: ${reopened} recommendation states reopened`);
  };
}
