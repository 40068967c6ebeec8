import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { recordingCloudWaits } from '../cloud/cloud-call-budget.js';
import { isCloudError } from '../cloud/cloud-error.js';
import { createJobContext } from '../context.js';
import type { Environment } from '../core/scope.js';
import {
  runTrackedJob,
  type TrackedJobKind,
  type TrackedJobOptions,
  type TrackedRun,
} from '../core/tracked-job.js';
import { emitEvent, type AppDeps, type ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { RecommendationApplyOperation, RecommendationApplyResult } from './recommendation-apply.entity.js';
import type { ApplyJobPayload } from './recommendation-apply.service.js';
import { recommendationDefinition } from './recommendation.catalog.js';
import { ApplyOperationStatus, ApplyOutcome, RecommendationStatus } from './recommendation.enums.js';
import { TenantRecommendation } from './tenant-recommendation.entity.js';

export const APPLY_ACTOR = 'system:recommendation-apply';

const CLOUD_OUTCOME = {
  applied: ApplyOutcome.APPLIED,
  'already compliant': ApplyOutcome.ALREADY_COMPLIANT,
  'not supported': ApplyOutcome.NOT_SUPPORTED,
} as const;

/** A dry run's answers: what a real apply would do. */
const PREVIEW_OUTCOME = {
  applied: ApplyOutcome.WOULD_APPLY,
  'already compliant': ApplyOutcome.ALREADY_COMPLIANT,
  'not supported': ApplyOutcome.NOT_SUPPORTED,
} as const;

const FINISHED = new Set([
  ApplyOperationStatus.SUCCEEDED,
  ApplyOperationStatus.PARTIALLY_FAILED,
  ApplyOperationStatus.FAILED,
]);

/**
 * The truthful end state: a tenant where the fix was not applied (it failed, or the cloud does not support it
 * there) keeps it from Succeeded; none applied is Failed, with the reason (issue #33 item 10: "Fix now" said
 * Succeeded when every tenant's outcome was "not supported").
 */
function finalState(outcomes: ApplyOutcome[]): {
  status: ApplyOperationStatus;
  failureReason: string | null;
} {
  const failed = outcomes.filter((outcome) => outcome === ApplyOutcome.FAILED).length;
  const unsupported = outcomes.filter((outcome) => outcome === ApplyOutcome.NOT_SUPPORTED).length;
  if (failed + unsupported === 0) return { status: ApplyOperationStatus.SUCCEEDED, failureReason: null };
  if (failed + unsupported < outcomes.length)
    return { status: ApplyOperationStatus.PARTIALLY_FAILED, failureReason: null };
  const parts = [
    unsupported > 0 ? `${unsupported} tenant(s) do not support it` : '',
    failed > 0 ? `${failed} tenant(s) failed` : '',
  ].filter(Boolean);
  return { status: ApplyOperationStatus.FAILED, failureReason: `Nothing was applied: ${parts.join(', ')}` };
}

/**
 * A dry run's end state: "not supported" is an answer, not a failure; only tenants the cloud could not answer
 * for count against it (Failed when it could answer for none).
 */
function previewState(outcomes: ApplyOutcome[]): {
  status: ApplyOperationStatus;
  failureReason: string | null;
} {
  const failed = outcomes.filter((outcome) => outcome === ApplyOutcome.FAILED).length;
  if (failed === 0) return { status: ApplyOperationStatus.SUCCEEDED, failureReason: null };
  if (failed < outcomes.length) return { status: ApplyOperationStatus.PARTIALLY_FAILED, failureReason: null };
  return {
    status: ApplyOperationStatus.FAILED,
    failureReason: `The cloud could not preview it in any tenant: ${failed} tenant(s) failed`,
  };
}

/** Asks the cloud for one tenant: the fix itself, or (a dry run) what the fix would do. */
async function cloudOutcome(
  ctx: ServiceContext,
  operation: RecommendationApplyOperation,
  tenant: Tenant,
): Promise<ApplyOutcome> {
  const posture = (await ctx.cloud.forTenant(tenant.externalId)).securityPosture;
  if (operation.dryRun)
    return PREVIEW_OUTCOME[await posture.previewSecurityControl(operation.recommendationId)];
  // Keyed by the item: after a crash between this call and its save, the resumed run is told what the first
  // call did ('applied'), not 'already compliant'.
  return CLOUD_OUTCOME[
    await posture.applySecurityControl(
      operation.recommendationId,
      `recommendation-apply:${operation.id}:${tenant.id}`,
    )
  ];
}

export const RECOMMENDATION_APPLY_JOB: TrackedJobKind<RecommendationApplyOperation> = {
  name: 'recommendation apply',
  entity: RecommendationApplyOperation,
  runnable: [ApplyOperationStatus.QUEUED, ApplyOperationStatus.RUNNING],
  running: ApplyOperationStatus.RUNNING,
  failed: ApplyOperationStatus.FAILED,
  // no `completed`: the run writes the truthful final status itself (Succeeded, PartiallyFailed, Failed)
  reasonColumn: 'failureReason',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'finishedAt',
  progressColumn: 'progress',
  retryable: () => true, // our side (database, a crash): the queue retries; the last attempt gives up
  giveUp: giveUpApplyOperation,
};

/**
 * Carries out one apply operation through core/tracked-job.ts, tenant by tenant through the cloud provider. Each tenant's outcome,
 * its recommendation state, the operation's progress and (when a tenant changed, or notifyAdmins asks for
 * every outcome) its `recommendation.applied` event commit together, so a retried job skips the tenants
 * already done and nothing is applied or announced twice. A dry run records each tenant's preview the same
 * way (resumable, fenced, with progress) and changes nothing else.
 */
export async function runApplyOperation(
  ctx: ServiceContext,
  operationId: string,
  job?: TrackedJobOptions<RecommendationApplyOperation>['job'],
  abortSignal?: AbortSignal,
): Promise<void> {
  const options = {
    em: ctx.em,
    kind: RECOMMENDATION_APPLY_JOB,
    id: operationId,
    clock: ctx.clock,
    job,
    abortSignal,
  };
  await runTrackedJob(options, (run) => applyPendingTenants(ctx, run));
}

/** The tenants not done yet (outcome Pending are the per-item progress), then the final status. */
async function applyPendingTenants(
  ctx: ServiceContext,
  run: TrackedRun<RecommendationApplyOperation>,
): Promise<void> {
  const operation = run.row;
  const operationId = operation.id;
  const results = await ctx.em.find(
    RecommendationApplyResult,
    { operationId },
    { orderBy: { tenantId: 'asc' } },
  );
  const tenants = new Map(
    (await ctx.em.find(Tenant, { id: { $in: results.map((r) => r.tenantId) } })).map((tenant) => [
      tenant.id,
      tenant,
    ]),
  );
  const definition = recommendationDefinition(operation.recommendationId);
  let done = results.filter((result) => result.outcome !== ApplyOutcome.PENDING).length;
  for (const result of results) {
    if (result.outcome !== ApplyOutcome.PENDING) continue;
    run.checkStop(); // SIGTERM: stop between two tenants; the queue resumes at the next one
    const tenant = tenants.get(result.tenantId);
    let outcome: ApplyOutcome;
    let reason: string | null = null;
    let cloudWaitMs = 0;
    if (!tenant) {
      outcome = ApplyOutcome.FAILED;
      reason = 'The tenant was removed';
    } else {
      try {
        const asked = await recordingCloudWaits(() => cloudOutcome(ctx, operation, tenant));
        outcome = asked.result;
        cloudWaitMs = asked.waits.get(tenant.externalId) ?? 0;
      } catch (error) {
        // A throttled or failing cloud: the queue runs the operation again later, from this tenant on.
        if (isCloudError(error) && error.retryable) throw error;
        // The tenant's cloud has no API to apply it (Microsoft 365 today): not appliable, said per tenant,
        // rather than a failure to retry. Any other refusal is this tenant's failure, not the operation's.
        outcome = isCloudError(error, 'Unsupported') ? ApplyOutcome.NOT_SUPPORTED : ApplyOutcome.FAILED;
        reason = error instanceof Error ? error.message : String(error);
      }
    }
    done++;
    const now = ctx.clock.now();
    await ctx.em.transactional(async (em) => {
      await run.fence(em); // a stale run (another took the operation over) records nothing
      const updated = await em.nativeUpdate(
        RecommendationApplyResult,
        { id: result.id, outcome: ApplyOutcome.PENDING },
        { outcome, reason, finishedAt: now, cloudWaitMs },
      );
      if (updated === 0) return; // another run of this job got here first
      if (operation.dryRun) return; // a preview records its answer and changes nothing else
      const met = outcome === ApplyOutcome.APPLIED || outcome === ApplyOutcome.ALREADY_COMPLIANT;
      await em.nativeUpdate(
        TenantRecommendation,
        { tenantId: result.tenantId, recommendationId: operation.recommendationId },
        {
          ...(met ? { compliant: true } : {}),
          status: RecommendationStatus.OPEN,
          statusChangedBy: APPLY_ACTOR,
          statusChangedAt: now,
          updatedAt: now,
        },
      );
      if (tenant && (outcome === ApplyOutcome.APPLIED || operation.notifyAdmins)) {
        await emitEvent(
          { ...ctx, em },
          {
            kind: 'recommendation.applied',
            severity: outcome === ApplyOutcome.FAILED ? 'medium' : 'informational',
            tenant: tenant.eventRef,
            details: {
              operationId,
              recommendationId: operation.recommendationId,
              title: definition?.title ?? operation.recommendationId,
              outcome,
              reason,
              notifyAdmins: operation.notifyAdmins,
            },
            actionPath: `/security/recommendations/${operation.recommendationId}/apply-operations/${operationId}`,
          },
        );
      }
    });
    await run.progress((100 * done) / results.length, { tenantsDone: done });
  }
  const outcomes = (
    await ctx.em.find(RecommendationApplyResult, { operationId }, { fields: ['outcome'], refresh: true })
  ).map((result) => result.outcome);
  await ctx.em.nativeUpdate(
    RecommendationApplyOperation,
    { id: operationId, runToken: run.token },
    {
      ...(operation.dryRun ? previewState(outcomes) : finalState(outcomes)),
      progress: 100,
      finishedAt: ctx.clock.now(),
    },
  );
}

/**
 * The job's last attempt failed (our side: database, crash loop): the operation is marked Failed with the
 * reason, its tenants not yet done are failed with it and leave In Progress, so nothing pretends to run.
 */
export async function giveUpApplyOperation(
  entityManager: EntityManager,
  operationId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await entityManager.transactional(async (em) => {
    const operation = await em.findOne(RecommendationApplyOperation, { id: operationId });
    if (!operation || FINISHED.has(operation.status)) return;
    const pending = await em.find(RecommendationApplyResult, { operationId, outcome: ApplyOutcome.PENDING });
    await em.nativeUpdate(
      RecommendationApplyResult,
      { operationId, outcome: ApplyOutcome.PENDING },
      { outcome: ApplyOutcome.FAILED, reason: `The apply job gave up: ${reason}`, finishedAt: now },
    );
    // A dry run moved no tenant to In Progress (those In Progress belong to a real apply).
    if (!operation.dryRun)
      await em.nativeUpdate(
        TenantRecommendation,
        {
          recommendationId: operation.recommendationId,
          tenantId: { $in: pending.map((result) => result.tenantId) },
          status: RecommendationStatus.IN_PROGRESS,
        },
        {
          status: RecommendationStatus.OPEN,
          statusChangedBy: APPLY_ACTOR,
          statusChangedAt: now,
          updatedAt: now,
        },
      );
    await em.nativeUpdate(
      RecommendationApplyOperation,
      { id: operationId },
      { status: ApplyOperationStatus.FAILED, failureReason: reason, finishedAt: now },
    );
  });
}

export function recommendationApplyTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload, helpers) => {
    const payload = rawPayload as ApplyJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    await runApplyOperation(
      createJobContext(orm, deps, scope, APPLY_ACTOR),
      payload.operationId,
      helpers.job,
      helpers.abortSignal,
    );
  };
}
