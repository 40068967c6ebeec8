import { AppError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';

/**
 * The organization's tenants named by a multi-tenant request, in one statement. Ids that are not tenants
 * of the caller's organization and environment answer 404 naming every one of them (DECISIONS: another
 * organization's tenant is as unknown as a tenant that does not exist).
 */
export async function requireTenants(ctx: ServiceContext, tenantIds: readonly string[]): Promise<Tenant[]> {
  const wanted = [...new Set(tenantIds.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return [];
  const tenants = await ctx.em.find(Tenant, { id: { $in: wanted } });
  const found = new Set(tenants.map((tenant) => tenant.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError(
      'NOT_FOUND',
      `Tenant${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found`,
      {
        resource: 'Tenant',
        ids: missing,
      },
    );
  }
  return tenants;
}
