import { ConflictError, invalid, InvalidRequestError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { pairKey, pairsOf, requiredText } from './info-barrier.validation.js';
import type { CreateBarrierPolicyInput } from './info-barrier.types.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { LockMode } from '@mikro-orm/postgresql';

/**
 * Barrier policies of a tenant (SPEC 2.6 "Barrier policy", 4.4): Block or Allow from a source segment to
 * target segments of the same tenant, never to itself, and never a second policy of the same type for a
 * pair of segments (pairs are unordered: a Block restricts both ways).
 */
export class BarrierPolicyService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(tenantId: string, page: PageArgs): Promise<Page<BarrierPolicy>> {
    await new TenantService(this.ctx).get(tenantId);
    return findLeanPage(this.ctx, BarrierPolicy, { tenantId }, page, { createdAt: 'desc', id: 'desc' });
  }

  async create(tenantId: string, input: CreateBarrierPolicyInput): Promise<BarrierPolicy> {
    await new TenantService(this.ctx).get(tenantId);
    const name = requiredText('name', input.name, 100);
    const source = input.sourceSegmentId.toLowerCase();
    const targets = input.targetSegmentIds.map((id) => id.toLowerCase());
    if (targets.length === 0)
      throw InvalidRequestError.field('targetSegmentIds', 'must name at least one segment');
    if (new Set(targets).size !== targets.length) {
      throw InvalidRequestError.field('targetSegmentIds', 'must not name a segment twice');
    }
    const self = targets.indexOf(source);
    if (self >= 0)
      throw InvalidRequestError.field(`targetSegmentIds.${self}`, 'must not be the source segment');
    return this.ctx.em.transactional(async (em) => {
      await em.findOneOrFail(Tenant, { id: tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const segments = new Set(
        (
          await em.find(BarrierSegment, { tenantId, id: { $in: [source, ...targets] } }, { fields: ['id'] })
        ).map((segment) => segment.id),
      );
      // Every unknown segment at once (issue #32 item 2).
      const unknown = [
        ...(segments.has(source)
          ? []
          : [{ field: 'sourceSegmentId', problem: 'is not a segment of this tenant' }]),
        ...targets.flatMap((target, index) =>
          segments.has(target)
            ? []
            : [{ field: `targetSegmentIds.${index}`, problem: 'is not a segment of this tenant' }],
        ),
      ];
      if (unknown.length > 0) throw invalid(unknown);

      const sameType = await em.find(BarrierPolicy, { tenantId, type: input.type }, { refresh: true });
      const wanted = new Set(targets.map((target) => pairKey(source, target)));
      for (const existing of sameType) {
        const clash = pairsOf(existing).find((pair) => wanted.has(pair));
        if (clash) {
          throw new ConflictError(
            `Policy "${existing.name}" already makes a ${input.type} policy for this pair of segments`,
            {
              conflictingPolicyId: existing.id,
              segmentIds: clash.split('|'),
            },
          );
        }
      }
      const policy = em.create(BarrierPolicy, {
        organizationId: this.ctx.scope.organizationId,
        environment: this.ctx.scope.environment,
        tenantId,
        name,
        type: input.type,
        sourceSegmentId: source,
        targetSegmentIds: targets,
        createdAt: this.ctx.clock.now(),
        createdBy: this.ctx.actor,
      });
      await em.flush();
      return policy;
    });
  }
}
