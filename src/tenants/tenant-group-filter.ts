import { NotFoundError } from '../core/errors.js';
import type { LeanCondition } from '../core/lean-read.js';
import type { ServiceContext } from '../core/service-context.js';

/**
 * THE tenant-group filter (issue #11 item 4), here beside the tenants because it selects tenants: every
 * cross-tenant list (the tenants themselves, the portal, dashboards, search, recommendations) narrows by it, while
 * the groups' own records and routes are the tenant-groups feature's. It reads the groups' tables by SQL only,
 * so the floor stays below that feature. For any list or aggregate that has a tenant column, checks that
 * the group is the caller's (404 otherwise, like any other organization's record) and returns the condition
 * "the row's tenant is a member". `tenantColumn` is trusted SQL (a column or `alias.column`); the group id is
 * bound. Nothing when no group is asked for. The member index (group_id, tenant_id) serves the subquery.
 */
export async function tenantGroupCondition(
  ctx: ServiceContext,
  tenantGroupId: string | null | undefined,
  tenantColumn = '"tenant_id"',
): Promise<LeanCondition[]> {
  if (!tenantGroupId) return [];
  await requireTenantGroup(ctx, tenantGroupId);
  return [
    {
      sql: `${tenantColumn} in (select m.tenant_id from tenant_group_members m where m.group_id = ?)`,
      params: [tenantGroupId],
    },
  ];
}

/** The member tenant ids of the caller's group (404 for another organization's or an unknown group). */
export async function tenantIdsOfGroup(ctx: ServiceContext, tenantGroupId: string): Promise<string[]> {
  await requireTenantGroup(ctx, tenantGroupId);
  const rows = await ctx.em
    .getConnection()
    .execute<Array<{ tenant_id: string }>>(
      `select tenant_id from tenant_group_members where group_id = ? order by tenant_id`,
      [tenantGroupId],
    );
  return rows.map((row) => row.tenant_id);
}

/** One indexed lookup by primary key within the caller's scope. */
export async function requireTenantGroup(ctx: ServiceContext, tenantGroupId: string): Promise<void> {
  const [found] = await ctx.em
    .getConnection()
    .execute<Array<{ id: string }>>(
      `select id from tenant_groups where id = ? and organization_id = ? and environment = ?`,
      [tenantGroupId.toLowerCase(), ctx.scope.organizationId, ctx.scope.environment],
    );
  if (!found) throw new NotFoundError('TenantGroup', tenantGroupId);
}
