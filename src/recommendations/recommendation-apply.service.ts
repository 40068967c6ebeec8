import { createHash } from 'node:crypto';
import { ConflictError, invalid, NotFoundError, type FieldProblem } from '../core/errors.js';
import { enqueueJob } from '../core/jobs.js';
import { DAY_MS } from '../core/clock.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { RecommendationApplyOperation, RecommendationApplyResult } from './recommendation-apply.entity.js';
import { ApplyOutcome, RecommendationStatus } from './recommendation.enums.js';
import { RecommendationService } from './recommendation.service.js';
import type {
  RecommendationApplyOperationView,
  RecommendationApplyTenantResult,
} from './recommendation.types.js';
import { TenantRecommendation } from './tenant-recommendation.entity.js';
import { requireTenants } from './tenant-selection.js';

export const RECOMMENDATION_APPLY_TASK = 'recommendation-apply';
export const APPLY_MAX_ATTEMPTS = 5;
/** An Idempotency-Key answers with its first operation for this long (then it may be used again). */
export const IDEMPOTENCY_WINDOW_MS = DAY_MS;

export interface ApplyRequest {
  tenantIds?: string[] | null;
  dryRun: boolean;
  notifyAdmins: boolean;
  idempotencyKey?: string | null;
}

export interface ApplyJobPayload {
  operationId: string;
  organizationId: string;
  environment: string;
}

/** What an Idempotency-Key is bound to: the recommendation, the tenants named (sorted ids) or all, notifyAdmins. */
function requestHashOf(recommendationId: string, tenantIds: string[] | null, notifyAdmins: boolean): string {
  return createHash('sha256')
    .update(JSON.stringify({ recommendationId, tenantIds, notifyAdmins }))
    .digest('hex');
}

/** Builds the readable view of an operation from its rows (or a dry run's computed results). */
export function operationView(
  fields: Omit<RecommendationApplyOperationView, 'counts' | 'results'>,
  results: RecommendationApplyTenantResult[],
): RecommendationApplyOperationView {
  const count = (outcome: ApplyOutcome) => results.filter((result) => result.outcome === outcome).length;
  return {
    ...fields,
    results,
    counts: {
      total: results.length,
      pending: count(ApplyOutcome.PENDING),
      wouldApply: count(ApplyOutcome.WOULD_APPLY),
      applied: count(ApplyOutcome.APPLIED),
      alreadyCompliant: count(ApplyOutcome.ALREADY_COMPLIANT),
      notSupported: count(ApplyOutcome.NOT_SUPPORTED),
      failed: count(ApplyOutcome.FAILED),
    },
  };
}

/**
 * "Fix Now" across tenants (SPEC 3.3, 4.2, 4.3): an apply records an operation with a pending result per
 * tenant, marks those tenants In Progress and queues the recommendation-apply job, all in one transaction
 * (recommendation-apply.task.ts does the work). A dry run is recorded and queued the same way but leaves the
 * tenants' states alone: its job asks the cloud what would change and changes nothing (issue #32 item 4: the
 * request no longer waits on the cloud once per tenant). An Idempotency-Key replays the first apply for 24 hours.
 */
export class RecommendationApplyService {
  constructor(private readonly ctx: ServiceContext) {}

  async apply(recommendationId: string, request: ApplyRequest): Promise<RecommendationApplyOperationView> {
    const definition = new RecommendationService(this.ctx).definition(recommendationId);
    // Every bad field at once (issue #32 item 2).
    const problems: FieldProblem[] = [];
    if (request.tenantIds && request.tenantIds.length === 0)
      problems.push({
        field: 'tenantIds',
        problem: 'must name at least one tenant (or be left out for every affected tenant)',
      });
    const key = request.idempotencyKey;
    if (key !== undefined && key !== null && !/^[\x21-\x7e]{1,255}$/.test(key))
      problems.push({ field: 'Idempotency-Key', problem: 'must be 1 to 255 visible ASCII characters' });
    if (problems.length > 0) throw invalid(problems);
    // A replay answers with its first operation before any state is looked at: by then its tenants are In
    // Progress, and "apply to every open tenant" would find none and answer 409 (issue #32 item 7).
    if (!request.dryRun && request.idempotencyKey) {
      const replayed = await this.replay(definition.id, request, request.idempotencyKey);
      if (replayed) return replayed;
    }
    const tenants = request.tenantIds
      ? await requireTenants(this.ctx, request.tenantIds)
      : await this.openTenants(definition.id);
    if (tenants.length === 0)
      throw new ConflictError(`Recommendation ${definition.id} has no Open tenant to apply to`, {});
    tenants.sort((a, b) => a.id.localeCompare(b.id));
    return this.start(definition.id, tenants, request);
  }

  /** The operation an Idempotency-Key already started within the window (409 for another request), or null. */
  private async replay(
    recommendationId: string,
    request: ApplyRequest,
    key: string,
  ): Promise<RecommendationApplyOperationView | null> {
    const now = this.ctx.clock.now();
    const earlier = await this.ctx.em.findOne(
      RecommendationApplyOperation,
      { idempotencyKey: key, createdAt: { $gt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } },
      { orderBy: { createdAt: 'desc' } },
    );
    if (!earlier) return null;
    const tenantIds = request.tenantIds
      ? [...new Set(request.tenantIds.map((id) => id.toLowerCase()))].sort()
      : null;
    if (earlier.requestHash !== requestHashOf(recommendationId, tenantIds, request.notifyAdmins))
      throw new ConflictError('This Idempotency-Key was used within 24 hours for a different request', {
        idempotencyKey: key,
        operationId: earlier.id,
      });
    return this.view(earlier);
  }

  async get(operationId: string): Promise<RecommendationApplyOperationView> {
    const operation = await this.ctx.em.findOne(
      RecommendationApplyOperation,
      { id: operationId },
      { refresh: true },
    );
    if (!operation) throw new NotFoundError('Recommendation apply operation', operationId);
    return this.view(operation);
  }

  private async view(operation: RecommendationApplyOperation): Promise<RecommendationApplyOperationView> {
    const results = await this.ctx.em.find(
      RecommendationApplyResult,
      { operationId: operation.id },
      { orderBy: { tenantId: 'asc' }, refresh: true },
    );
    return operationView(
      {
        id: operation.id,
        recommendationId: operation.recommendationId,
        dryRun: operation.dryRun,
        notifyAdmins: operation.notifyAdmins,
        status: operation.status,
        progress: operation.progress,
        failureReason: operation.failureReason,
        createdAt: operation.createdAt,
        finishedAt: operation.finishedAt,
      },
      results.map(({ tenantId, outcome, reason, finishedAt, cloudWaitMs }) => ({
        tenantId,
        outcome,
        reason,
        finishedAt,
        cloudWaitMs,
      })),
    );
  }

  /** Tenants where the recommendation is Open (not met, not dismissed or snoozed): "apply everywhere it is open". */
  private async openTenants(recommendationId: string): Promise<Tenant[]> {
    const rows = await this.ctx.em.find(
      TenantRecommendation,
      { recommendationId, compliant: false, status: RecommendationStatus.OPEN },
      { fields: ['tenantId'] },
    );
    return requireTenants(
      this.ctx,
      rows.map((row) => row.tenantId),
    );
  }

  private async start(
    recommendationId: string,
    tenants: Tenant[],
    request: ApplyRequest,
  ): Promise<RecommendationApplyOperationView> {
    const { scope } = this.ctx;
    const now = this.ctx.clock.now();
    const { dryRun } = request;
    // Dry runs ignore the key: a preview changes nothing, so running one twice is harmless.
    const key = dryRun ? null : (request.idempotencyKey ?? null);
    const requestHash = dryRun
      ? null
      : requestHashOf(
          recommendationId,
          request.tenantIds ? tenants.map((t) => t.id) : null,
          request.notifyAdmins,
        );
    const operation = await this.ctx.em.transactional(async (em) => {
      if (key !== null) {
        // Two requests with the same key at once: the second waits here and then finds the first.
        await em.execute('select pg_advisory_xact_lock(hashtext(?))', [
          `apply:${scope.organizationId}:${scope.environment}:${key}`,
        ]);
        const earlier = await em.findOne(
          RecommendationApplyOperation,
          { idempotencyKey: key, createdAt: { $gt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } },
          { orderBy: { createdAt: 'desc' } },
        );
        if (earlier) {
          if (earlier.requestHash === requestHash) return earlier;
          throw new ConflictError('This Idempotency-Key was used within 24 hours for a different request', {
            idempotencyKey: key,
            operationId: earlier.id,
          });
        }
      }
      const created = em.create(RecommendationApplyOperation, {
        organizationId: scope.organizationId,
        environment: scope.environment,
        recommendationId,
        notifyAdmins: request.notifyAdmins,
        dryRun,
        idempotencyKey: key,
        requestHash,
        requestedBy: this.ctx.actor,
        createdAt: now,
      });
      for (const tenant of tenants) {
        em.create(RecommendationApplyResult, {
          organizationId: scope.organizationId,
          environment: scope.environment,
          operationId: created.id,
          tenantId: tenant.id,
        });
      }
      await em.flush();
      // A preview leaves the tenants as they are (Open stays Open; a real apply in flight keeps them In Progress).
      if (!dryRun)
        await em.nativeUpdate(
          TenantRecommendation,
          { recommendationId, tenantId: { $in: tenants.map((t) => t.id) }, compliant: false },
          {
            status: RecommendationStatus.IN_PROGRESS,
            snoozedUntil: null,
            statusChangedBy: this.ctx.actor,
            statusChangedAt: now,
            updatedAt: now,
          },
        );
      const payload: ApplyJobPayload = {
        operationId: created.id,
        organizationId: scope.organizationId,
        environment: scope.environment,
      };
      await enqueueJob(em, RECOMMENDATION_APPLY_TASK, { ...payload }, { maxAttempts: APPLY_MAX_ATTEMPTS });
      return created;
    });
    return this.view(operation);
  }
}
