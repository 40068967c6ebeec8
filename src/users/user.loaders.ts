import DataLoader from 'dataloader';
import { findLeanIn } from '../core/lean-read.js';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { LicenseAssignment } from '../licenses/license.entity.js';

/**
 * User id → SKU ids the user holds (oldest assignment first). A page of users costs one statement
 * for all their licenses, read as lean views (no entities: nothing here is changed).
 */
export const userLicensesLoader = defineLoader<string, string[]>(
  'users.licenses',
  (ctx) =>
    new DataLoader(async (userIds) => {
      const rows = await findLeanIn(ctx, LicenseAssignment, 'userId', userIds, {
        assignedAt: 'asc',
        skuId: 'asc',
      });
      return groupByKey(userIds, rows, (row) => row.userId).map((held) => held.map((row) => row.skuId));
    }),
);
