import { LockMode } from '@mikro-orm/postgresql';
import { ConflictError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { BarrierSegment } from './info-barrier.entity.js';
import { requiredText } from './info-barrier.validation.js';
import type { CreateSegmentInput } from './info-barrier.types.js';
import { readSegmentDirectory, segmentMembers } from './segment-membership.js';
import { assertNoSegmentOverlap, segmentOverlaps } from './segment-overlap.js';

/**
 * Information-barrier segments of a tenant (SPEC 2.6 "Segment", 4.2): a user belongs to one segment only,
 * so a segment whose members would overlap an existing segment's is refused with 409 naming the users.
 */
export class SegmentService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(tenantId: string, page: PageArgs): Promise<Page<BarrierSegment>> {
    await new TenantService(this.ctx).get(tenantId);
    return findLeanPage(this.ctx, BarrierSegment, { tenantId }, page, { createdAt: 'desc', id: 'desc' });
  }

  async create(tenantId: string, input: CreateSegmentInput): Promise<BarrierSegment> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const name = requiredText('name', input.name, 100);
    const value = requiredText('value', input.value, 255);
    const directory = await readSegmentDirectory(await this.ctx.cloud.forTenant(tenant.externalId));
    const members = segmentMembers(directory, { attribute: input.attribute, value });
    return this.ctx.em.transactional(async (em) => {
      // One segment creation per tenant at a time, so two overlapping segments cannot both pass the check.
      await em.findOneOrFail(Tenant, { id: tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const existing = await em.find(
        BarrierSegment,
        { tenantId },
        { orderBy: { createdAt: 'asc' }, refresh: true },
      );
      const clash = existing.find((segment) => segment.name.toLowerCase() === name.toLowerCase());
      if (clash)
        throw new ConflictError(`A segment named "${clash.name}" already exists`, { segmentId: clash.id });
      await assertNoSegmentOverlap(
        em,
        tenantId,
        segmentOverlaps(directory, existing, { attribute: input.attribute, value }),
        (users) =>
          `${users} user(s) would be in this segment and in another; a user belongs to one segment only`,
      );
      const segment = em.create(BarrierSegment, {
        organizationId: this.ctx.scope.organizationId,
        environment: this.ctx.scope.environment,
        tenantId,
        name,
        attribute: input.attribute,
        value,
        memberCount: members.length,
        createdAt: this.ctx.clock.now(),
        createdBy: this.ctx.actor,
      });
      await em.flush();
      return segment;
    });
  }
}
