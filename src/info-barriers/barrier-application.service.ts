import { LockMode } from '@mikro-orm/postgresql';
import { ConflictError } from '../core/errors.js';
import { enqueueJob } from '../core/jobs.js';
import type { ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { BarrierApplication, BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { BARRIER_APPLICATION_HOURS, BarrierApplicationStatus } from './info-barrier.enums.js';
import { policyConflicts } from './info-barrier.validation.js';
import { readSegmentDirectory } from './segment-membership.js';
import { assertNoSegmentOverlap, segmentOverlaps } from './segment-overlap.js';

export const BARRIER_APPLY_TASK = 'info-barrier-apply';
export const BARRIER_APPLY_MAX_ATTEMPTS = 5;
/** SPEC 8.3 "Information barrier policy application: up to 24 hours". */
export const BARRIER_APPLICATION_MS = BARRIER_APPLICATION_HOURS * 60 * 60 * 1000;

export interface BarrierApplyJobPayload {
  applicationId: string;
  organizationId: string;
  environment: string;
}

/** Why an apply (or its job) refused a set whose segments share users. */
export const overlapMessage = (users: number) =>
  `${users} user(s) are in more than one segment; a user belongs to one segment only, so nothing was applied`;

const ACTIVE = [BarrierApplicationStatus.PENDING, BarrierApplicationStatus.APPLYING];

/**
 * Applying a tenant's information barriers (SPEC 4.2 POST /api/security/info-barriers/apply, 4.4, 8.3): the
 * whole policy set is validated (contradictions are 409 naming the policies; segments that now share a user,
 * by the cloud's directory, are 409 naming the users as at segment creation), then an application is
 * recorded with its start time and the info-barrier-apply job is queued in the same transaction. One
 * application at a time per tenant: a second apply while one is Pending or Applying is 409.
 */
export class BarrierApplicationService {
  constructor(private readonly ctx: ServiceContext) {}

  async apply(tenantId: string): Promise<BarrierApplication> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    // Read before the lock: a cloud call is not made while the tenant's row is held.
    const directory = await readSegmentDirectory(await this.ctx.cloud.forTenant(tenant.externalId));
    return this.ctx.em.transactional(async (em) => {
      await em.findOneOrFail(Tenant, { id: tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const running = await em.findOne(
        BarrierApplication,
        { tenantId, status: { $in: ACTIVE } },
        { refresh: true },
      );
      if (running) {
        throw new ConflictError(
          `An application of this tenant's barriers is ${running.status}; wait for it to finish`,
          {
            applicationId: running.id,
            status: running.status,
            startedAt: running.startedAt.toISOString(),
          },
        );
      }
      const [segments, policies] = await Promise.all([
        em.find(BarrierSegment, { tenantId }, { orderBy: { createdAt: 'asc' }, refresh: true }),
        em.find(BarrierPolicy, { tenantId }, { orderBy: { createdAt: 'asc' }, refresh: true }),
      ]);
      const conflicts = policyConflicts(policies);
      if (conflicts.length > 0) {
        throw new ConflictError('The barrier policies contradict each other; nothing was applied', {
          conflicts,
        });
      }
      // Creation keeps segments apart, but members move (a profile changed here or in the cloud since).
      await assertNoSegmentOverlap(em, tenantId, segmentOverlaps(directory, segments), overlapMessage);
      const application = em.create(BarrierApplication, {
        organizationId: this.ctx.scope.organizationId,
        environment: this.ctx.scope.environment,
        tenantId,
        startedAt: this.ctx.clock.now(),
        segmentCount: segments.length,
        policyCount: policies.length,
        requestedBy: this.ctx.actor,
      });
      await em.flush();
      const payload: BarrierApplyJobPayload = {
        applicationId: application.id,
        organizationId: this.ctx.scope.organizationId,
        environment: this.ctx.scope.environment,
      };
      await enqueueJob(em, BARRIER_APPLY_TASK, { ...payload }, { maxAttempts: BARRIER_APPLY_MAX_ATTEMPTS });
      return application;
    });
  }

  /** The tenant's latest application, or null when its barriers were never applied. */
  async latest(tenantId: string): Promise<BarrierApplication | null> {
    await new TenantService(this.ctx).get(tenantId);
    return this.ctx.em.findOne(
      BarrierApplication,
      { tenantId },
      { orderBy: { startedAt: 'desc', id: 'desc' }, refresh: true },
    );
  }
}
