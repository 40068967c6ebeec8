import DataLoader from 'dataloader';
import { findLeanIn } from '../core/lean-read.js';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { LicenseAssignment } from '../licenses/license.entity.js';
import type { Loaders } from '../core/loaders.js';
import type { User } from './user.entity.js';

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

/** The SKU ids a list read brought with each user (its own statement), kept on the read-only view. */
const HELD_SKU_IDS = Symbol('heldSkuIds');
type WithHeldSkuIds = { [HELD_SKU_IDS]?: string[] };

/** Remembers on a list's view the SKU ids its statement read (UserService.listWithLicenses). */
export function rememberHeldSkuIds(user: User, skuIds: string[]): void {
  (user as WithHeldSkuIds)[HELD_SKU_IDS] = skuIds;
}

/**
 * A user's SKU ids: those its list read brought, at once, else through the loader (one statement per batch).
 * A users page answers its 25 `licenses` fields without a promise each: the loader's cache hits cost a promise,
 * a closure and two promise adoptions per user (issue #31, bytes per REST list), priming it one more promise.
 */
export function userLicenses(ctx: { loaders: Loaders }, user: User): string[] | Promise<string[]> {
  return (user as WithHeldSkuIds)[HELD_SKU_IDS] ?? ctx.loaders.get(userLicensesLoader).load(user.id);
}
