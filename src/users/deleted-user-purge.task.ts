import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import { createCloudAccess, createJobContext } from '../context.js';
import type { Environment, Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import type { CloudAccess } from '../cloud/cloud-access.js';
import { purgeDeletedUsers, RECOVERY_WINDOW_MS } from './deleted-user.service.js';

export const DELETED_USER_PURGE_TASK = 'deleted-user-purge';

/** Hourly on one process of the fleet (graphile-worker's cron takes a lock per run). */
export const DELETED_USER_PURGE_CRON: CronItem = {
  task: DELETED_USER_PURGE_TASK,
  match: '23 * * * *',
  identifier: DELETED_USER_PURGE_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

/** Recorded as `purgedBy` in the `user.purged` events of the job. */
export const PURGE_ACTOR = 'system:deleted-user-purge';

export interface PurgeLimits {
  /** Users read, purged upstream and deleted per batch (one transaction per organization and environment). */
  batchSize: number;
  /** Batches per run; what is left waits for the next run. */
  maxBatches: number;
}

export const DEFAULT_PURGE_LIMITS: PurgeLimits = { batchSize: 100, maxBatches: 50 };

export interface PurgeResult {
  purged: number;
  /** Active again upstream (restored there): left for the next sync to restore here. */
  activeUpstream: number;
  /** The cloud call failed: tried again on the next run. */
  failed: number;
}

interface Candidate {
  id: string;
  organization_id: string;
  environment: Environment;
  tenant_external_id: string;
  external_id: string;
}

/**
 * Permanently deletes every user soft-deleted 30 or more days ago (by the clock), across organizations, in
 * bounded batches: each user is purged in the upstream cloud first (idempotent), then our rows go and
 * `user.purged` (details.automatic: true) is emitted, per organization and environment in one transaction.
 * Safe to run twice at once: the DELETE ... RETURNING in purgeDeletedUsers removes and announces each user
 * once, and a user restored in the meantime no longer matches (restore is refused past the window anyway).
 */
export async function purgeExpiredUsers(
  orm: MikroORM,
  deps: AppDeps,
  limits: PurgeLimits = DEFAULT_PURGE_LIMITS,
): Promise<PurgeResult> {
  const cutoff = new Date(deps.clock.now().getTime() - RECOVERY_WINDOW_MS);
  const result: PurgeResult = { purged: 0, activeUpstream: 0, failed: 0 };
  const passedOver: string[] = []; // users this run leaves as they are, so no batch reads them again
  const connection = orm.em.getConnection();
  const clouds = new Map<string, CloudAccess>();
  const cloudOf = (scope: Scope): CloudAccess => {
    const key = `${scope.organizationId}/${scope.environment}`;
    const cloud = clouds.get(key) ?? createCloudAccess(orm, deps, scope);
    clouds.set(key, cloud);
    return cloud;
  };
  for (let batch = 0; batch < limits.maxBatches; batch++) {
    const candidates = await connection.execute<Candidate[]>(
      `select u.id, u.organization_id, u.environment, u.external_id, t.external_id as tenant_external_id
         from users u join tenants t on t.id = u.tenant_id
        where u.deleted_at <= ? ${passedOver.length > 0 ? 'and u.id not in (?)' : ''}
        order by u.deleted_at, u.id
        limit ?`,
      [cutoff, ...(passedOver.length > 0 ? [passedOver] : []), limits.batchSize],
    );
    const byScope = new Map<string, { scope: Scope; ids: string[] }>();
    for (const candidate of candidates) {
      // Through the organization's delegated access, as every call: a tenant that withdrew it refuses.
      const scope = { organizationId: candidate.organization_id, environment: candidate.environment };
      const gone = await cloudOf(scope)
        .forTenant(candidate.tenant_external_id)
        .then((cloud) => cloud.directory.purgeUser(candidate.external_id))
        .catch(() => null);
      if (gone === null) {
        result.failed++;
        passedOver.push(candidate.id);
        continue;
      }
      if (!gone) {
        result.activeUpstream++;
        passedOver.push(candidate.id);
        continue;
      }
      const key = `${candidate.organization_id}/${candidate.environment}`;
      const group = byScope.get(key) ?? {
        scope: { organizationId: candidate.organization_id, environment: candidate.environment },
        ids: [],
      };
      group.ids.push(candidate.id);
      byScope.set(key, group);
    }
    for (const { scope, ids } of byScope.values()) {
      const ctx = createJobContext(orm, deps, scope, PURGE_ACTOR);
      const purged = await ctx.em.transactional((em) =>
        purgeDeletedUsers({ ...ctx, em }, ids, { deletedBefore: cutoff, automatic: true }),
      );
      result.purged += purged.length;
    }
    if (candidates.length < limits.batchSize) break;
  }
  return result;
}

export function deletedUserPurgeTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const result = await purgeExpiredUsers(orm, deps);
    helpers.logger.info(`deleted-user purge: ${JSON.stringify(result)}`);
  };
}
