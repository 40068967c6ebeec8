import type { MikroORM } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { CloudRestoreItemResult } from '../cloud/backup.provider.js';
import { isCloudError } from '../cloud/cloud-error.js';
import { createJobContext } from '../context.js';
import type { Environment } from '../core/scope.js';
import {
  CONTINUES_IN_NEXT_JOB,
  runTrackedJob,
  type TrackedJobKind,
  type TrackedJobOptions,
} from '../core/tracked-job.js';
import { enqueueJob } from '../core/jobs.js';
import { emitEvent, type AppDeps, type ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { RestoreItemStatus, RestoreJobStatus, RestoreTargetType } from './backup.enums.js';
import {
  EXPORT_LINK_TTL_MS,
  RESTORE_BATCH_SIZE,
  RESTORE_MAX_ATTEMPTS,
  RESTORE_MAX_WAIT_MS,
  restorePollDelayMs,
  restoreSettingsOf,
} from './backup.settings.js';
import { newDownloadSecret } from './restore-download.js';
import { RestoreJobItem } from './restore-job-item.entity.js';
import { RestoreJob } from './restore-job.entity.js';
import { RESTORE_TASK, type RestoreJobPayload } from './restore.service.js';

/** The job's counts from its items, in one statement: they only grow, since items only leave Pending. */
const RECOUNT_SQL = `
  update restore_jobs j set
    restored_count = c.restored, skipped_count = c.skipped, failed_count = c.failed,
    processed_count = c.restored + c.skipped + c.failed
  from (select count(*) filter (where status = 'Restored') as restored,
               count(*) filter (where status = 'Skipped') as skipped,
               count(*) filter (where status = 'Failed') as failed
        from restore_job_items where job_id = ?) c
  where j.id = ?`;

/**
 * A batch's item results in one statement (a batch is RESTORE_BATCH_SIZE items; one update each cost a round trip
 * per item). Only items still Pending, or Cancelled by a cancel that landed meanwhile, take their result.
 */
const RECORD_SQL = `
  update restore_job_items i set
    status = r.status, detail = r.detail, restored_to = r.restored_to, exported = r.exported, processed_at = ?
  from jsonb_to_recordset(?::jsonb) as r(item_id text, status text, detail text, restored_to text, exported jsonb)
  where i.organization_id = ? and i.environment = ? and i.job_id = ? and i.item_id = r.item_id
    and i.status in (?, ?)`;

type FinalOutcome = Exclude<CloudRestoreItemResult['outcome'], 'InProgress'>;

const OUTCOME_STATUS: Record<FinalOutcome, RestoreItemStatus> = {
  Restored: RestoreItemStatus.RESTORED,
  Skipped: RestoreItemStatus.SKIPPED,
  Failed: RestoreItemStatus.FAILED,
};

function isTransient(error: unknown): boolean {
  if (isCloudError(error)) return error.retryable;
  return typeof error === 'object' && error !== null && (error as { transient?: unknown }).transient === true;
}

/** The worker is stopping (graceful shutdown): the run stops between batches and the job runs again later. */
export class RestoreInterrupted extends Error {
  readonly transient = true;
  constructor() {
    super('The worker stopped during the restore; it resumes at the next pending item');
  }
}

/** The backup service refused or could not be reached; transient ones are retried by the queue. */
class BackupServiceError extends Error {
  constructor(
    cause: unknown,
    readonly transient = isTransient(cause),
  ) {
    super(`The backup service could not restore: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause, // a throttled cloud's Retry-After is read from it (core/jobs.ts)
    });
  }
}

/** The restore as a tracked job (core/tracked-job.ts); the runner's `fail` is its give-up. */
export const RESTORE_JOB: Omit<TrackedJobKind<RestoreJob>, 'giveUp'> = {
  name: 'restore',
  entity: RestoreJob,
  runnable: [RestoreJobStatus.QUEUED, RestoreJobStatus.RUNNING],
  running: RestoreJobStatus.RUNNING,
  failed: RestoreJobStatus.FAILED,
  // no `completed`: the run concludes the job itself (status from the item counts, and its event)
  reasonColumn: 'failureReason',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'completedAt',
  retryable: isTransient,
};

/**
 * Works through a restore's Pending items in batches through the cloud provider. After each batch the
 * item results and the job's counts are committed together, so a worker that dies mid-run leaves a job
 * that the next attempt resumes at the first Pending item; the batch that was at the cloud when it died is
 * sent again under the same restore key, and the cloud answers it from its record instead of restoring
 * twice. A cloud that stays unavailable through the last attempt marks the job Failed with the reason.
 * It runs through core/tracked-job.ts, so a run that keeps dying is failed too; when the worker is told to
 * stop (the job's abort signal), the run stops after the batch at hand and the queue runs it again later.
 * A cloud that restores asynchronously (a Microsoft 365 Backup restore session) answers InProgress for items
 * it is still working on: they stay Pending, the run queues its next look (sooner at first, then further
 * apart: the RESTORE_POLL_MIN_DELAY_MS setting .. RESTORE_POLL_MAX_DELAY_MS) and ends, and that look asks the same batch
 * again under the same key (the cloud answers from the session it already has); past RESTORE_MAX_WAIT_MS
 * since the start the job fails saying so, never left running.
 */
export class RestoreRunner {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly jobId: string,
  ) {}

  async run(job?: TrackedJobOptions<RestoreJob>['job'], abortSignal?: AbortSignal): Promise<void> {
    const kind: TrackedJobKind<RestoreJob> = {
      ...RESTORE_JOB,
      giveUp: async (_em, _id, reason) => {
        const restore = await this.ctx.em.fork().findOneOrFail(RestoreJob, { id: this.jobId });
        await this.fail(await this.ctx.em.fork().findOneOrFail(Tenant, { id: restore.tenantId }), reason);
      },
    };
    await runTrackedJob({ em: this.ctx.em, kind, id: this.jobId, clock: this.ctx.clock, job }, () =>
      this.work(abortSignal),
    );
  }

  private async work(abortSignal?: AbortSignal): Promise<void | typeof CONTINUES_IN_NEXT_JOB> {
    const { em } = this.ctx;
    for (;;) {
      if (abortSignal?.aborted) throw new RestoreInterrupted();
      const job = await em.findOne(RestoreJob, { id: this.jobId }, { refresh: true });
      if (!job || job.finished) return;
      const tenant = await em.findOneOrFail(Tenant, { id: job.tenantId });
      const batch = await em.find(
        RestoreJobItem,
        { jobId: job.id, status: RestoreItemStatus.PENDING },
        { orderBy: { ordinal: 'asc' }, limit: RESTORE_BATCH_SIZE, refresh: true },
      );
      if (batch.length === 0) return this.finish(tenant);
      let results: CloudRestoreItemResult[];
      try {
        const cloud = await this.ctx.cloud.forTenant(tenant.externalId);
        results = await cloud.backup.restoreBackupItems({
          restoreKey: job.id,
          requestedAt: job.createdAt.toISOString(),
          snapshotExternalId: job.snapshotExternalId,
          target: {
            kind: job.targetType,
            tenantExternalId: await this.targetTenantExternalId(job, tenant),
            location: job.targetLocation,
          },
          conflictPolicy: job.conflictPolicy,
          itemIds: batch.map((item) => item.itemId),
        });
      } catch (error) {
        throw new BackupServiceError(error); // transient ones are retried by the queue, others fail the job
      }
      await this.record(job.id, results);
      if (results.some((result) => result.outcome === 'InProgress')) return this.lookAgainLater(job, tenant);
    }
  }

  /** The cloud is still restoring: the next look is a job of its own, unless the wait has lasted too long. */
  private async lookAgainLater(
    job: RestoreJob,
    tenant: Tenant,
  ): Promise<typeof CONTINUES_IN_NEXT_JOB | void> {
    const waited = this.ctx.clock.now().getTime() - (job.startedAt ?? job.createdAt).getTime();
    if (waited > RESTORE_MAX_WAIT_MS)
      return this.fail(
        tenant,
        `The backup service did not finish the restore within ${RESTORE_MAX_WAIT_MS / 3_600_000} hours`,
      );
    const delay = restorePollDelayMs(waited, restoreSettingsOf(this.ctx));
    await this.ctx.em.transactional(async (em) => {
      const payload: RestoreJobPayload = { jobId: job.id, ...this.ctx.scope };
      await enqueueJob(
        em,
        RESTORE_TASK,
        { ...payload },
        {
          // graphile-worker schedules on the database's clock
          runAt: new Date(Date.now() + delay),
          maxAttempts: RESTORE_MAX_ATTEMPTS,
        },
      );
    });
    return CONTINUES_IN_NEXT_JOB;
  }

  private async targetTenantExternalId(job: RestoreJob, tenant: Tenant): Promise<string> {
    if (!job.targetTenantId) return tenant.externalId;
    return (await this.ctx.em.findOneOrFail(Tenant, { id: job.targetTenantId })).externalId;
  }

  /** A batch's results and the job's counts, together. A cancel that landed meanwhile does not hide them. */
  private async record(jobId: string, results: CloudRestoreItemResult[]): Promise<void> {
    // Items still InProgress stay Pending: the next look asks again.
    const done = results.flatMap((result) =>
      result.outcome === 'InProgress'
        ? []
        : [
            {
              item_id: result.itemId,
              status: OUTCOME_STATUS[result.outcome as FinalOutcome],
              detail: result.detail,
              restored_to: result.restoredTo,
              exported: result.exported,
            },
          ],
    );
    const { organizationId, environment } = this.ctx.scope;
    await this.ctx.em.transactional(async (em) => {
      if (done.length > 0)
        await em.execute(
          RECORD_SQL,
          [
            this.ctx.clock.now(),
            JSON.stringify(done),
            organizationId,
            environment,
            jobId,
            RestoreItemStatus.PENDING,
            RestoreItemStatus.CANCELLED,
          ],
          'run',
        );
      await em.execute(RECOUNT_SQL, [jobId, jobId], 'run');
    });
  }

  private async finish(tenant: Tenant): Promise<void> {
    await this.conclude(tenant, (job) => {
      if (job.itemCount > 0 && job.failedCount === job.itemCount) {
        job.status = RestoreJobStatus.FAILED;
        job.failureReason = 'Every item failed to restore (see the item results)';
      } else {
        job.status =
          job.failedCount > 0 ? RestoreJobStatus.COMPLETED_WITH_ERRORS : RestoreJobStatus.COMPLETED;
        if (job.targetType === RestoreTargetType.EXPORT && job.restoredCount > 0) {
          job.downloadSecret = newDownloadSecret(this.ctx);
          job.downloadExpiresAt = new Date(this.ctx.clock.now().getTime() + EXPORT_LINK_TTL_MS);
        }
      }
    });
  }

  private async fail(tenant: Tenant, reason: string): Promise<void> {
    await this.conclude(tenant, (job) => {
      job.status = RestoreJobStatus.FAILED;
      job.failureReason = reason;
    });
    await this.ctx.em
      .fork()
      .nativeUpdate(
        RestoreJobItem,
        { jobId: this.jobId, status: RestoreItemStatus.PENDING },
        { status: RestoreItemStatus.CANCELLED, detail: 'Not attempted: the restore failed' },
      );
  }

  /** The final status and its event in one transaction, unless a cancel got there first. */
  private async conclude(tenant: Tenant, decide: (job: RestoreJob) => void): Promise<void> {
    await this.ctx.em.transactional(async (em) => {
      const job = await em.findOneOrFail(
        RestoreJob,
        { id: this.jobId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (job.finished) return;
      decide(job);
      job.finished = true;
      job.completedAt = this.ctx.clock.now();
      await em.flush();
      const failed = job.status === RestoreJobStatus.FAILED;
      await emitEvent(
        { ...this.ctx, em },
        {
          kind: failed ? 'restore.failed' : 'restore.completed',
          severity: failed ? 'high' : job.status === RestoreJobStatus.COMPLETED ? 'informational' : 'medium',
          tenant: tenant.eventRef,
          details: {
            restoreJobId: job.id,
            status: job.status,
            workload: job.workload,
            restoreType: job.restoreType,
            target: job.targetType,
            itemCount: job.itemCount,
            restoredCount: job.restoredCount,
            skippedCount: job.skippedCount,
            failedCount: job.failedCount,
            failureReason: job.failureReason,
            initiatedBy: job.initiatedBy,
          },
          actionPath: `/tenants/${tenant.id}/backup/restores/${job.id}`,
        },
      );
    });
  }
}

export function restoreJobTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload, helpers) => {
    const payload = rawPayload as RestoreJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, 'system:backup-restore');
    await new RestoreRunner(ctx, payload.jobId).run(helpers.job, helpers.abortSignal);
  };
}
