import type { LeanExtra } from '../core/lean-read.js';
import type { LeanSelection } from '../core/lean-selection.js';
import { rememberHeldSkuIds } from './user.loaders.js';
import type { User } from './user.entity.js';

/** What a lean users page reads beside the users' own columns, and what its computed fields read. */

/** The page's SKU ids in the same statement (oldest assignment first, as userLicensesLoader reads them). */
export const HELD_SKU_IDS: LeanExtra<User> = {
  // One grouped scan for the page's users, not a subquery per user (docs/benchmarks.md "eighth round").
  overPage:
    'select held.user_id as lean_key, array_agg(held.sku_id order by held.assigned_at, held.sku_id) as held_sku_ids ' +
    'from license_assignments held where held.user_id in (select id from lean_page) group by held.user_id',
  read: (user, row) => rememberHeldSkuIds(user, (row.held_sku_ids as string[] | null) ?? []),
};

/** The columns the User type's computed fields read (lean-selection.ts): a lean users page reads only these. */
export const USER_COMPUTED_FIELDS: LeanSelection<User>['computed'] = {
  privileged: ['directoryRoles'],
  // Brought by the page's own subquery (HELD_SKU_IDS) or the loader; never a column of the view.
  licenses: [],
  // Only on createUser's result (a WeakMap of the entity).
  generatedPassword: [],
};
