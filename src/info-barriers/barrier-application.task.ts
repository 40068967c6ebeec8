import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import type { Environment } from '../core/scope.js';
import { runTrackedJob, type TrackedJobKind, type TrackedJobOptions } from '../core/tracked-job.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import {
  BARRIER_APPLICATION_MS,
  overlapMessage,
  type BarrierApplyJobPayload,
} from './barrier-application.service.js';
import { BarrierApplication, BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { BarrierApplicationStatus } from './info-barrier.enums.js';
import { readSegmentDirectory, segmentMembers } from './segment-membership.js';
import {
  assertNoSegmentOverlap,
  describeOverlaps,
  SegmentOverlapError,
  segmentOverlaps,
} from './segment-overlap.js';

export const BARRIER_PROGRESS_TASK = 'info-barrier-progress';
export const BARRIER_ACTOR = 'system:info-barrier-apply';

/** Every 5 minutes on one process: an application shows Applied at most 5 minutes after its 24 hours. */
export const BARRIER_PROGRESS_CRON: CronItem = {
  task: BARRIER_PROGRESS_TASK,
  match: '*/5 * * * *',
  identifier: BARRIER_PROGRESS_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

/**
 * The push as a tracked job (core/tracked-job.ts). It has no visible running state: the push is one
 * idempotent call, so the row stays Pending while it runs (a resumed run pushes again) and becomes
 * Applying when the cloud has it.
 */
export const BARRIER_APPLY_JOB: TrackedJobKind<BarrierApplication> = {
  name: 'information-barrier apply',
  entity: BarrierApplication,
  runnable: [BarrierApplicationStatus.PENDING],
  running: BarrierApplicationStatus.PENDING,
  failed: BarrierApplicationStatus.FAILED,
  completed: BarrierApplicationStatus.APPLYING,
  reasonColumn: 'failureReason',
  // A cloud or database hiccup: the queue retries; the last attempt fails it. Overlapping segments do not
  // pass by waiting: the application fails at once with the reason.
  retryable: (error) => !(error instanceof SegmentOverlapError),
};

/**
 * Pending → Applying: pushes the tenant's segments (with their members now) and policies to the cloud,
 * which replaces its configuration (idempotent, so a retried or resumed job pushes the same set again
 * harmlessly). Pending → Failed, nothing pushed, when segments now share a user (the reason names them).
 */
export async function pushBarrierApplication(
  ctx: ServiceContext,
  applicationId: string,
  job?: TrackedJobOptions<BarrierApplication>['job'],
): Promise<void> {
  const options = { em: ctx.em, kind: BARRIER_APPLY_JOB, id: applicationId, clock: ctx.clock, job };
  await runTrackedJob(options, async (run) => {
    await pushConfiguration(ctx, run.row);
    return { pushedAt: ctx.clock.now() };
  });
}

async function pushConfiguration(ctx: ServiceContext, application: BarrierApplication): Promise<void> {
  const tenant = await ctx.em.findOneOrFail(Tenant, { id: application.tenantId });
  const [segments, policies] = await Promise.all([
    ctx.em.find(BarrierSegment, { tenantId: tenant.id }, { orderBy: { createdAt: 'asc' } }),
    ctx.em.find(BarrierPolicy, { tenantId: tenant.id }, { orderBy: { createdAt: 'asc' } }),
  ]);
  const cloud = await ctx.cloud.forTenant(tenant.externalId);
  const directory = await readSegmentDirectory(cloud);
  // Apply checked this too, but membership may have changed since: never push a user in two segments.
  await assertNoSegmentOverlap(
    ctx.em,
    tenant.id,
    segmentOverlaps(directory, segments),
    (users, overlaps) => `${overlapMessage(users)}: ${describeOverlaps(overlaps)}`,
  );
  await cloud.securityPosture.applyInformationBarriers({
    segments: segments.map((segment) => ({
      id: segment.id,
      name: segment.name,
      attribute: segment.attribute,
      value: segment.value,
      memberExternalIds: segmentMembers(directory, segment).map((user) => user.externalId),
    })),
    policies: policies.map(({ id, type, sourceSegmentId, targetSegmentIds }) => ({
      id,
      type,
      sourceSegmentId,
      targetSegmentIds,
    })),
  });
}

/**
 * Applying → Applied for every application that started 24 hours ago or more (by the clock), across
 * organizations, in one statement: the cloud's enforcement window of SPEC 8.3 has passed.
 */
export async function completeBarrierApplications(orm: MikroORM, deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const result = await orm.em.getConnection().execute<{ affectedRows: number }>(
    `update info_barrier_applications set status = 'Applied', applied_at = ?
      where status = 'Applying' and started_at <= ?`,
    [now, new Date(now.getTime() - BARRIER_APPLICATION_MS)],
    'run',
  );
  return result.affectedRows;
}

export function barrierApplyTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload, helpers) => {
    const payload = rawPayload as BarrierApplyJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, BARRIER_ACTOR);
    await pushBarrierApplication(ctx, payload.applicationId, helpers.job);
  };
}

export function barrierProgressTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const applied = await completeBarrierApplications(orm, deps);
    if (applied > 0) helpers.logger.info(`information barriers: ${applied} applications now Applied`);
  };
}
