import { recordingCloudWaits, totalWaitMs } from '../cloud/cloud-call-budget.js';
import { createJobContext } from '../context.js';
import type { TaskFactory } from '../core/feature-module.js';
import type { Environment } from '../core/scope.js';
import { JobStatus } from '../core/job-status.js';
import { runTrackedJob, type TrackedJobKind } from '../core/tracked-job.js';
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
 * What a failed sync stores in `error`: a database constraint's text names the constraint and quotes the
 * key values (a user's UPN), so it becomes a readable sentence; anything else (a cloud refusal) keeps its
 * message.
 */
export function readableSyncFailure(step: string, error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('23'))
    return new Error(
      `The ${step} step could not store what the cloud returned: two records claim a value that must be ` +
        `unique (or refer to one that is gone); fix it in the cloud and sync again`,
    );
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs one tenant sync with the steps the wiring gives (`TaskWiring.syncSteps`: every feature's, src/features.ts): Queued → Running
 * (progress 0..100) → Completed | Failed, through the shared tracked-job mechanism (core/tracked-job.ts): a
 * sync whose worker died resumes on the retried job (the reconcile is idempotent, so it simply runs again)
 * and is marked Failed with a reason when it gives up. A failure of the sync itself is recorded on it (the
 * failed step's error, the step named in the log) and not retried (the caller can start another sync).
 */
export const tenantSyncTask: TaskFactory =
  (orm, deps, { syncSteps }) =>
  async (rawPayload, helpers) => {
    const payload = rawPayload as TenantSyncJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, 'system:tenant-sync');
    await runTrackedJob(
      { em: ctx.em, kind: TENANT_SYNC_JOB, id: payload.syncId, clock: deps.clock, job: helpers.job },
      async (run) => {
        if (run.resumed)
          helpers.logger.info(`tenant sync ${payload.syncId} resumes after an interrupted run`);
        // Its cloud calls may wait for the tenant's call budget (cloud-call-budget.ts): the result says how long.
        const { result, waits } = await recordingCloudWaits(() =>
          syncTenant(ctx, run.row.tenantId, syncSteps, (progress) => run.progress(progress)),
        );
        const waitedMs = totalWaitMs(waits);
        if (result.failed) {
          helpers.logger.error(`tenant sync ${payload.syncId}: its ${result.failed.step} step failed`);
          throw readableSyncFailure(result.failed.step, result.failed.error);
        }
        for (const warning of result.warnings)
          helpers.logger.warn(`tenant sync ${payload.syncId}: ${warning}`);
        if (waitedMs === 0) return { summary: result.summary, warnings: [...result.warnings] };
        return {
          summary: { ...result.summary, cloudCallWaitMs: waitedMs },
          warnings: [
            ...result.warnings,
            `The sync waited ${Math.ceil(waitedMs / 1000)} s for the tenant's cloud call budget (Microsoft's ` +
              'per-tenant limits, shared by every instance)',
          ],
        };
      },
    );
  };
