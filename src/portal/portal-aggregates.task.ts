import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { AppDeps } from '../core/service-context.js';
import { PortalAggregates } from './portal-aggregates.js';

export const PORTAL_AGGREGATES_FULL_TASK = 'portal.aggregates.full';
export const PORTAL_AGGREGATES_DIRTY_TASK = 'portal.aggregates.dirty';

/**
 * SPEC 8.3 "Portal dashboard refresh: every 5 minutes": brings every tenant up to the clock (refreshAll). It
 * is what moves users across the 30-day inactivity line as time passes (no write marks that): it recounts the
 * marked tenants and those whose stored next crossing has come, and confirms the others.
 */
export const PORTAL_AGGREGATES_FULL_CRON: CronItem = {
  task: PORTAL_AGGREGATES_FULL_TASK,
  match: '*/5 * * * *',
  identifier: PORTAL_AGGREGATES_FULL_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

/** Every minute (cron's finest tick): tenants our own writes marked dirty and no portal read has recounted yet. */
export const PORTAL_AGGREGATES_DIRTY_CRON: CronItem = {
  task: PORTAL_AGGREGATES_DIRTY_TASK,
  match: '* * * * *',
  identifier: PORTAL_AGGREGATES_DIRTY_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

export function portalAggregatesFullTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const started = performance.now();
    const tenants = await new PortalAggregates(orm.em.fork(), deps.clock).refreshAll();
    helpers.logger.info(
      `portal aggregates: ${tenants} tenants recounted (the others confirmed) in ${Math.round(performance.now() - started)} ms`,
    );
  };
}

export function portalAggregatesDirtyTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const tenants = await new PortalAggregates(orm.em.fork(), deps.clock).refreshDirty();
    if (tenants > 0) helpers.logger.info(`portal aggregates: ${tenants} changed tenants recounted`);
  };
}
