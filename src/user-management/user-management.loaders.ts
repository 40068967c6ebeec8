import DataLoader from 'dataloader';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { USER_MAX_GROUPS_LISTED, USER_MAX_LICENSES_LISTED } from '../http/list-bounds.js';
import type { UserGroupMembership, UserLicenseDetail } from './user-management.types.js';

/** The first items of a user's list, and how many there are in all. */
export interface ListedOf<T> {
  items: T[];
  total: number;
}

/**
 * A user's licenses and groups come from the customer's directory (issue #32 item 3): each list is cut at the
 * bound the cost analysis counts on (src/http/list-bounds.ts) in SQL, each row carrying the count in all.
 */
function listed<R extends { total: number }, T>(rows: R[], item: (row: R) => T): ListedOf<T> {
  return { items: rows.map(item), total: rows[0]?.total ?? 0 };
}

interface LicenseRow {
  user_id: string;
  sku_id: string;
  sku_part_number: string;
  name: string;
  assigned_at: Date;
  total: number;
}

/** User id → the licenses held with SKU names, the first USER_MAX_LICENSES_LISTED (one statement per batch). */
export const userLicenseDetailsLoader = defineLoader<string, ListedOf<UserLicenseDetail>>(
  'user-management.license-details',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await ctx.em.execute<LicenseRow[]>(
        `select * from (
           select a.user_id, a.sku_id, l.sku_part_number, l.name, a.assigned_at,
                  row_number() over (partition by a.user_id order by a.assigned_at, a.sku_id) as n,
                  (count(*) over (partition by a.user_id))::int as total
             from license_assignments a
             join tenant_licenses l on l.tenant_id = a.tenant_id and l.sku_id = a.sku_id
            where a.organization_id = ? and a.environment = ? and a.user_id in (?)) held
          where n <= ?
          order by assigned_at, sku_id`,
        [ctx.scope.organizationId, ctx.scope.environment, [...userIds], USER_MAX_LICENSES_LISTED],
      );
      return groupByKey(userIds, rows, (row) => row.user_id).map((held) =>
        listed(held, (row: LicenseRow) => ({
          skuId: row.sku_id,
          skuPartNumber: row.sku_part_number,
          name: row.name,
          assignedAt: new Date(row.assigned_at),
        })),
      );
    }),
);

interface GroupRow {
  user_id: string;
  id: string;
  display_name: string;
  total: number;
}

/** User id → the groups the user is a member of, by name, the first USER_MAX_GROUPS_LISTED (one statement). */
export const userGroupsLoader = defineLoader<string, ListedOf<UserGroupMembership>>(
  'user-management.groups',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await ctx.em.execute<GroupRow[]>(
        `select * from (
           select m.user_id, g.id, g.display_name,
                  row_number() over (partition by m.user_id order by lower(g.display_name), g.id) as n,
                  (count(*) over (partition by m.user_id))::int as total
             from group_memberships m join groups g on g.id = m.group_id
            where m.organization_id = ? and m.environment = ? and m.user_id in (?)) member
          where n <= ?
          order by lower(display_name), id`,
        [ctx.scope.organizationId, ctx.scope.environment, [...userIds], USER_MAX_GROUPS_LISTED],
      );
      return groupByKey(userIds, rows, (row) => row.user_id).map((groups) =>
        listed(groups, (row: GroupRow) => ({ id: row.id, displayName: row.display_name })),
      );
    }),
);
