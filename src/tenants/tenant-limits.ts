import type { EntityManager } from '@mikro-orm/core';
import { ConflictError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';

/**
 * Tenants one organization may administer in one environment (issue #32 item 3). The cost analysis sizes
 * every list that grows with the organization's tenants by this number (src/http/list-bounds.ts: a
 * recommendation's tenants, an apply's results, the over-allocated tenants), so it must hold where tenants are
 * written: onboarding refuses the next one with 409. 1,000 is the scale the product is measured at
 * (docs/benchmarks.md: portal and dashboards at 1,000 tenants).
 */
export const MAX_TENANTS_PER_ORGANIZATION = 1000;

/**
 * Refuses (409 TENANT_LIMIT) when the scope already holds MAX_TENANTS_PER_ORGANIZATION tenants. Called in the
 * onboarding transaction; the lock makes two onboardings of the same scope count one after the other.
 */
export async function requireRoomForTenant(em: EntityManager, scope: Scope): Promise<void> {
  const connection = em.getConnection();
  await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [
    `tenants:${scope.organizationId}:${scope.environment}`,
  ]);
  const [{ count }] = await connection.execute<{ count: number }[]>(
    'select count(*)::int as count from tenants where organization_id = ? and environment = ?',
    [scope.organizationId, scope.environment],
  );
  if (count >= MAX_TENANTS_PER_ORGANIZATION) {
    throw new ConflictError(
      `Your organization already administers ${count} tenants in this environment, the most it may ` +
        `(tenantsPerOrganization limit ${MAX_TENANTS_PER_ORGANIZATION}); remove one before onboarding another`,
      { reason: 'TENANT_LIMIT', limit: 'tenantsPerOrganization', maximum: MAX_TENANTS_PER_ORGANIZATION },
    );
  }
}
