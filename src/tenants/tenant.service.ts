import { enqueueJob } from '../core/jobs.js';
import { TRACKED_JOB_QUEUE_ATTEMPTS } from '../core/tracked-job.js';
import { NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { LeanSelection } from '../core/lean-selection.js';
import { tenantGroupCondition } from './tenant-group-filter.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantSync } from './sync-run.entity.js';
import { onboardTenant } from './tenant-onboarding.js';
import { Tenant } from './tenant.entity.js';

export const TENANT_SYNC_TASK = 'tenant.sync';

export interface TenantSyncJobPayload {
  syncId: string;
  organizationId: string;
  environment: string;
}

/** The columns the Tenant type's computed fields read (lean-selection.ts): its getters and `health`'s sync age. */
const TENANT_COMPUTED_FIELDS: LeanSelection<Tenant>['computed'] = {
  health: ['lastSyncedAt'],
  cloudPermissions: ['cloudPermissionsRead'],
  passwordPolicy: ['passwordMinLength', 'passwordRequireComplexity'],
};

export class TenantService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Newest first; only the members of `tenantGroupId` when given (404 for a group not the caller's). */
  async list(
    args: PageArgs,
    tenantGroupId?: string | null,
    /** The fields asked of each tenant (selectedItemFields): only their columns are read; all without it. */
    fields?: ReadonlySet<string>,
  ): Promise<Page<Tenant>> {
    const inGroup = await tenantGroupCondition(this.ctx, tenantGroupId, '"id"');
    return findLeanPage(this.ctx, Tenant, {}, args, { createdAt: 'desc', id: 'desc' }, inGroup, undefined, {
      fields,
      computed: TENANT_COMPUTED_FIELDS,
    });
  }

  async get(id: string): Promise<Tenant> {
    const tenant = await this.ctx.em.findOne(Tenant, { id });
    if (!tenant) throw new NotFoundError('Tenant', id);
    return tenant;
  }

  /** Onboards a tenant of the upstream cloud (see tenant-onboarding.ts). */
  onboard(input: { externalId: string }): Promise<Tenant> {
    return onboardTenant(this.ctx, input);
  }

  /** Records a sync request and queues the job in one transaction; the job reports progress on the record. */
  async startSync(tenantId: string): Promise<TenantSync> {
    await this.get(tenantId);
    return this.ctx.em.transactional(async (em) => {
      const sync = new TenantSync(this.ctx.scope, tenantId, this.ctx.clock.now());
      await em.persist(sync).flush();
      const payload: TenantSyncJobPayload = { syncId: sync.id, ...this.ctx.scope };
      // One sync per tenant at a time: the job queue runs a tenant's jobs in order.
      await enqueueJob(
        em,
        TENANT_SYNC_TASK,
        { ...payload },
        {
          queueName: `tenant-sync:${tenantId}`,
          maxAttempts: TRACKED_JOB_QUEUE_ATTEMPTS,
        },
      );
      return sync;
    });
  }

  async getSync(tenantId: string, syncId: string): Promise<TenantSync> {
    const sync = await this.ctx.em.findOne(TenantSync, { id: syncId, tenantId });
    if (!sync) throw new NotFoundError('Tenant sync', syncId);
    return sync;
  }
}
