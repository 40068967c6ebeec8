import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import type { Environment } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { JobStatus, TenantSync } from './sync-run.entity.js';
import { reconcileTenant } from './tenant-reconcile.js';
import type { TenantSyncJobPayload } from './tenant.service.js';

/**
 * Runs one tenant sync: Queued → Running (progress 0..100) → Completed | Failed.
 * A failure is recorded on the sync and not retried by the queue (the caller can start another sync).
 */
export function tenantSyncTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload) => {
    const payload = rawPayload as TenantSyncJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, 'system:tenant-sync');
    const sync = await ctx.em.findOne(TenantSync, { id: payload.syncId });
    if (!sync || sync.status !== JobStatus.QUEUED) return;
    sync.status = JobStatus.RUNNING;
    sync.startedAt = deps.clock.now();
    await ctx.em.flush();
    try {
      const summary = await reconcileTenant(ctx, sync.tenantId, async (progress) => {
        sync.progress = progress;
        await ctx.em.flush();
      });
      sync.status = JobStatus.COMPLETED;
      sync.summary = summary;
      sync.progress = 100;
    } catch (error) {
      sync.status = JobStatus.FAILED;
      sync.error = error instanceof Error ? error.message : String(error);
    }
    sync.finishedAt = deps.clock.now();
    ctx.em.clear();
    await ctx.em.nativeUpdate(
      TenantSync,
      { id: sync.id },
      {
        status: sync.status,
        summary: sync.summary,
        progress: sync.progress,
        error: sync.error,
        finishedAt: sync.finishedAt,
      },
    );
  };
}
