import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { alignCloudOrder } from './enrollment-cloud-write.js';
import { cloudConfigurationsOf } from './enrollment-cloud.js';
import { defaultPolicyId, lockDefaultPolicy, policiesOf } from './enrollment-facts.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';

/**
 * The order of a tenant's non-default policies (SPEC 4.2 `PUT …/priority`, 8.2): checked against the stored
 * policies, written to the cloud first (Intune's per-kind order, outside every lock: enrollment-cloud-write.ts),
 * then saved in one short transaction under the default policy's lock, checked again there.
 */
export class EnrollmentOrderService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Sets the order of the tenant's non-default policies: `policyIds` must name each of them exactly once.
   * A duplicate, the default or an id that is no policy of the tenant: 400. A list that misses a policy (it
   * was created after the caller read the list, or the list is partial): 409 with what is missing, and
   * nothing changes. All priorities are written in one statement.
   */
  async reorder(tenantId: string, policyIds: string[]): Promise<EnrollmentRestriction[]> {
    const cloud = await cloudConfigurationsOf(this.ctx, await new TenantService(this.ctx).get(tenantId));
    const before = await this.nonDefault(this.ctx.em, tenantId);
    const ordered = checkedOrder(policyIds, before, defaultPolicyId(tenantId));
    if (cloud) await alignCloudOrder(cloud, ordered);
    try {
      await this.ctx.em.transactional(async (em) => {
        const fallback = await lockDefaultPolicy(em, this.ctx.scope, tenantId, this.ctx.clock.now());
        // A create or another reorder may have been saved since the check above.
        checkedOrder(policyIds, await this.nonDefault(em, tenantId), fallback.id);
        await em.execute(
          `update enrollment_restrictions r set priority = o.position, updated_at = ?
             from jsonb_array_elements_text(?::jsonb) with ordinality as o(id, position)
            where r.id = o.id::uuid and r.organization_id = ? and r.environment = ? and r.tenant_id = ?`,
          [
            this.ctx.clock.now(),
            JSON.stringify(policyIds),
            this.ctx.scope.organizationId,
            this.ctx.scope.environment,
            tenantId,
          ],
        );
        fallback.priority = policyIds.length + 1;
        await em.flush();
      });
    } catch (error) {
      // Intune took an order we then refused: give it the stored one back (a failure here changes nothing the
      // caller can act on; the next reorder aligns Intune with ours again, from Intune's current order).
      if (cloud && error instanceof ConflictError)
        await alignCloudOrder(cloud, await this.nonDefault(this.ctx.em.fork(), tenantId)).catch(
          () => undefined,
        );
      throw error;
    }
    return policiesOf(this.ctx.em.fork(), tenantId);
  }

  /** The tenant's non-default policies, first first, as stored now. */
  private nonDefault(em: EntityManager, tenantId: string): Promise<EnrollmentRestriction[]> {
    return em.find(
      EnrollmentRestriction,
      { tenantId, isDefault: false },
      { orderBy: { priority: 'asc' }, refresh: true },
    );
  }
}

/** The policies in the order asked, or 400 (a duplicate, the default, an unknown id) / 409 (one missing). */
function checkedOrder(
  policyIds: string[],
  current: EnrollmentRestriction[],
  defaultId: string,
): EnrollmentRestriction[] {
  const byId = new Map(current.map((policy) => [policy.id, policy]));
  const seen = new Set<string>();
  const problems = policyIds.flatMap((id, i) => {
    const field = `policyIds[${i}]`;
    if (seen.has(id)) return [{ field, problem: `names ${id} more than once` }];
    seen.add(id);
    if (id === defaultId) return [{ field, problem: 'is the default policy, which always stays last' }];
    if (!byId.has(id)) return [{ field, problem: 'is not an enrollment restriction of the tenant' }];
    return [];
  });
  if (problems.length > 0) throw new InvalidRequestError('Invalid priority order', problems);
  const missing = current.filter((policy) => !seen.has(policy.id)).map((policy) => policy.id);
  if (missing.length > 0) {
    throw new ConflictError(
      `The order must name every policy of the tenant but the default; missing: ${missing.join(', ')}`,
      { missing, current: current.map((policy) => policy.id) },
    );
  }
  return policyIds.map((id) => byId.get(id)!);
}
