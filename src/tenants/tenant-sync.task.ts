import { createJobContext } from '../context.js';
import type { TaskFactory } from '../core/feature-module.js';
import type { Environment } from '../core/scope.js';
import { JobStatus } from '../core/job-status.js';
import { runTrackedJob, type TrackedJobKind } from '../core/tracked-job.js';
import type { SyncStep } from '../sync/sync-step.js';
import { TenantSync } from './sync-run.entity.js';
import { syncTenant } from './tenant-reconcile.js';
import type { TenantSyncJobPayload } from './tenant.service.js';

export const TENANT_SYNC_JOB: TrackedJobKind<TenantSync> = {
  name: 'tenant sync',
  entity: TenantSync,
  runnable: [JobStatus.QUEUED, JobStatus.RUNNING],
  running: JobStatus.RUNNING,
  failed: JobStatus.FAILED,
  completed: JobStatus.COMPLETED,
  reasonColumn: 'error',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'finishedAt',
  progressColumn: 'progress',
};

/**
 * Runs one tenant sync with the steps `syncSteps` gives (every feature's, src/features.ts): Queued → Running
 * (progress 0..100) → Completed | Failed, through the shared tracked-job mechanism (core/tracked-job.ts): a
 * sync whose worker died resumes on the retried job (the reconcile is idempotent, so it simply runs again)
 * and is marked Failed with a reason when it gives up. A failure of the sync itself is recorded on it (the
 * failed step's error, the step named in the log) and not retried (the caller can start another sync).
 */
export function tenantSyncTask(syncSteps: () => readonly SyncStep[]): TaskFactory {
  return (orm, deps) => async (rawPayload, helpers) => {
    const payload = rawPayload as TenantSyncJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, 'system:tenant-sync');
    await runTrackedJob(
      { em: ctx.em, kind: TENANT_SYNC_JOB, id: payload.syncId, clock: deps.clock, job: helpers.job },
      async (run) => {
        if (run.resumed)
          helpers.logger.info(`tenant sync ${payload.syncId} resumes after an interrupted run`);
        const result = await syncTenant(ctx, run.row.tenantId, syncSteps(), (progress) =>
          run.progress(progress),
        );
        if (result.failed) {
          helpers.logger.error(`tenant sync ${payload.syncId}: its ${result.failed.step} step failed`);
          throw result.failed.error;
        }
        return { summary: result.summary };
      },
    );
  };
}
