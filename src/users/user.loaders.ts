import DataLoader from 'dataloader';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { LicenseAssignment } from '../licenses/license.entity.js';

/**
 * User id → SKU ids the user holds (oldest assignment first). A page of users costs one statement
 * for all their licenses. The rows are read without the identity map: they are partial
 * (two columns) and must not stand in for full assignments elsewhere in the same request.
 */
export const userLicensesLoader = defineLoader<string, string[]>(
  'users.licenses',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await ctx.em.find(
        LicenseAssignment,
        { userId: { $in: [...userIds] } },
        {
          fields: ['userId', 'skuId'],
          orderBy: { assignedAt: 'asc', skuId: 'asc' },
          disableIdentityMap: true,
        },
      );
      return groupByKey(userIds, rows, (row) => row.userId).map((held) => held.map((row) => row.skuId));
    }),
);
