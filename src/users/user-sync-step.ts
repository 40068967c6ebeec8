import { allPages } from '../cloud/pages.js';
import type { CloudUserRound } from '../cloud/user-round.js';
import type { SyncStep, SyncWriteContext } from '../sync/sync-step.js';
import { reconcileGroups, reconcileUsers } from './user-sync.js';
import { UserSyncState } from './user-sync-state.entity.js';

/** The share of the users step's progress that the users themselves take (the groups come after). */
const USERS_SHARE = 40 / 55;

/**
 * Keeps where the next round starts and whether this one had sign-in data. Written in the sync's
 * transaction, with the rows the round produced: a crash before the commit loses both, and the next sync
 * reads the same changes again from the previous cursor (applying a change twice changes nothing).
 */
async function saveSyncState(write: SyncWriteContext, round: CloudUserRound): Promise<void> {
  const { em, scope } = write.ctx;
  let state = await em.findOne(UserSyncState, { tenantId: write.tenant.id });
  if (!state) {
    state = new UserSyncState(scope, { tenantId: write.tenant.id, updatedAt: write.now });
    em.persist(state);
  }
  state.deltaCursor = round.cursor;
  state.signInDataUnavailable = round.signInActivity.available ? null : round.signInActivity.reason;
  state.updatedAt = write.now;
  await em.flush();
}

/**
 * Users, then groups and memberships of the users we hold: the first step of a sync, the most rows. Users
 * come from the cloud's round (user-round.ts): all of them, or the changes since the stored cursor.
 */
export const usersSyncStep: SyncStep = {
  name: 'users',
  weight: 55,
  async read({ cloud, tenant, ctx }) {
    const stored = await ctx.em.findOne(UserSyncState, { tenantId: tenant.id });
    const [round, groups] = await Promise.all([
      cloud.directory.readUsers(stored?.deltaCursor ?? null),
      allPages(cloud.directory.listGroups()),
    ]);
    return async (write) => {
      const synced = await reconcileUsers(write, round, (done, total) =>
        write.progress((USERS_SHARE * done) / Math.max(total, 1)),
      );
      const groupCounts = await reconcileGroups(write, groups, synced.activeUserIds);
      await saveSyncState(write, round);
      return { ...synced.counts, ...groupCounts };
    };
  },
};
