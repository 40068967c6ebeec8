import DataLoader from 'dataloader';
import { defineLoader, groupByKey } from '../core/loaders.js';
import type { UserGroupMembership, UserLicenseDetail } from './user-management.types.js';

/** User id → the licenses held with SKU names (one statement per batch of users). */
export const userLicenseDetailsLoader = defineLoader<string, UserLicenseDetail[]>(
  'user-management.license-details',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await ctx.em.execute<
        Array<{ user_id: string; sku_id: string; sku_part_number: string; name: string; assigned_at: Date }>
      >(
        `select a.user_id, a.sku_id, l.sku_part_number, l.name, a.assigned_at
           from license_assignments a
           join tenant_licenses l on l.tenant_id = a.tenant_id and l.sku_id = a.sku_id
          where a.organization_id = ? and a.environment = ? and a.user_id in (?)
          order by a.assigned_at, a.sku_id`,
        [ctx.scope.organizationId, ctx.scope.environment, [...userIds]],
      );
      return groupByKey(userIds, rows, (row) => row.user_id).map((held) =>
        held.map((row) => ({
          skuId: row.sku_id,
          skuPartNumber: row.sku_part_number,
          name: row.name,
          assignedAt: new Date(row.assigned_at),
        })),
      );
    }),
);

/** User id → the groups the user is a member of, by name (one statement per batch of users). */
export const userGroupsLoader = defineLoader<string, UserGroupMembership[]>(
  'user-management.groups',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await ctx.em.execute<Array<{ user_id: string; id: string; display_name: string }>>(
        `select m.user_id, g.id, g.display_name
           from group_memberships m join groups g on g.id = m.group_id
          where m.organization_id = ? and m.environment = ? and m.user_id in (?)
          order by lower(g.display_name), g.id`,
        [ctx.scope.organizationId, ctx.scope.environment, [...userIds]],
      );
      return groupByKey(userIds, rows, (row) => row.user_id).map((groups) =>
        groups.map((row) => ({ id: row.id, displayName: row.display_name })),
      );
    }),
);
