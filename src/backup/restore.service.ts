import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { enqueueJob } from '../core/jobs.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { ConflictPolicy, RestoreItemStatus, RestoreJobStatus } from './backup.enums.js';
import { RESTORE_MAX_ATTEMPTS } from './backup.settings.js';
import type { StartRestoreInput } from './backup.types.js';
import { RestoreJobItem } from './restore-job-item.entity.js';
import { RestoreJob } from './restore-job.entity.js';
import { checkRestoreRequest } from './restore-request.js';

export const RESTORE_TASK = 'backup.restore';

export interface RestoreJobPayload {
  jobId: string;
  organizationId: string;
  environment: string;
}

/**
 * Restores (SPEC 4.2 /api/backup/restore..., 4.4): a request is checked completely before anything is
 * written; then the job, one row per item (Pending) and the graphile-worker job are written in one
 * transaction, so a restore exists exactly when its work is queued. The work itself is restore-runner.ts.
 */
export class RestoreService {
  constructor(private readonly ctx: ServiceContext) {}

  async start(tenantId: string, input: StartRestoreInput): Promise<RestoreJob> {
    const checked = await checkRestoreRequest(this.ctx, tenantId, input);
    if (checked.items.length === 0) throw InvalidRequestError.field('itemIds', 'nothing to restore');
    const { scope } = this.ctx;
    return this.ctx.em.transactional(async (em) => {
      const job = em.create(RestoreJob, {
        ...scope,
        tenantId,
        workload: input.workload,
        restoreType: input.restoreType,
        snapshotId: checked.snapshot.id,
        snapshotExternalId: checked.snapshot.externalId,
        snapshotTakenAt: checked.snapshot.takenAt,
        resourceName: checked.snapshot.resourceName,
        targetType: input.target.type,
        targetTenantId: checked.targetTenant.id === tenantId ? null : checked.targetTenant.id,
        targetLocation: input.target.location ?? null,
        conflictPolicy: input.conflictPolicy ?? ConflictPolicy.SKIP,
        itemCount: checked.items.length,
        initiatedBy: this.ctx.actor,
        createdAt: this.ctx.clock.now(),
      });
      await em.flush();
      await em.insertMany(
        RestoreJobItem,
        checked.items.map((item, index) => ({
          id: randomUUID(),
          ...scope,
          jobId: job.id,
          ordinal: index + 1,
          itemId: item.itemId,
          name: item.name,
          path: item.path,
          itemType: item.itemType,
          status: RestoreItemStatus.PENDING,
        })),
      );
      const payload: RestoreJobPayload = { jobId: job.id, ...scope };
      await enqueueJob(
        em,
        RESTORE_TASK,
        { ...payload },
        { jobKey: `restore:${job.id}`, maxAttempts: RESTORE_MAX_ATTEMPTS },
      );
      return job;
    });
  }

  async get(tenantId: string, jobId: string): Promise<RestoreJob> {
    await new TenantService(this.ctx).get(tenantId);
    const job = await this.ctx.em.findOne(RestoreJob, { id: jobId, tenantId }, { refresh: true });
    if (!job) throw new NotFoundError('Restore job', jobId);
    return job;
  }

  /** The job's items in processing order, with their results. */
  async items(job: RestoreJob, page: PageArgs): Promise<Page<RestoreJobItem>> {
    return findLeanPage(this.ctx, RestoreJobItem, { jobId: job.id }, page, { ordinal: 'asc' });
  }

  /** Finished restores (SPEC 4.2 "completed restores"), the latest first. */
  async history(tenantId: string, page: PageArgs): Promise<Page<RestoreJob>> {
    await new TenantService(this.ctx).get(tenantId);
    return findLeanPage(this.ctx, RestoreJob, { tenantId, finished: true }, page, {
      completedAt: 'desc',
      id: 'desc',
    });
  }

  /**
   * Queued or Running → Cancelled (an extension). Items not yet done become Cancelled; a batch already at
   * the cloud when the cancel lands still records its real results (restore-runner.ts), so nothing
   * restored is ever shown as not restored.
   */
  async cancel(tenantId: string, jobId: string): Promise<RestoreJob> {
    await this.get(tenantId, jobId);
    return this.ctx.em.transactional(async (em) => {
      const job = await em.findOneOrFail(
        RestoreJob,
        { id: jobId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (job.finished)
        throw new ConflictError(`Restore job ${jobId} is already ${job.status}`, {
          from: job.status,
          to: RestoreJobStatus.CANCELLED,
          allowed: [],
        });
      job.status = RestoreJobStatus.CANCELLED;
      job.finished = true;
      job.completedAt = this.ctx.clock.now();
      await em.flush();
      await em.nativeUpdate(
        RestoreJobItem,
        { jobId, status: RestoreItemStatus.PENDING },
        { status: RestoreItemStatus.CANCELLED },
      );
      return job;
    });
  }
}
