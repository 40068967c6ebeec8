import type { CloudUserRecord } from '../provider.js';
import type { CloudSignInActivity, CloudUserRemoval, CloudUserRound } from '../user-round.js';
import type { GraphTenantClient } from './graph-client.js';
import { directoryRolesByUser, lastSignInsByUser } from './graph-directory-reads.js';
import { isDeltaLinkExpired } from './graph-errors.js';
import { cloudUserOf, managerOfDelta, USER_SELECT, type GraphDeltaUser } from './graph-user-records.js';

/**
 * The users of a tenant for the sync (docs/microsoft365.md, "Users: full and incremental syncs"): a full
 * `/users/delta` round plus the recycle bin on the first sync, later from the stored deltaLink (only what
 * changed since); an expired link (410 Gone, syncStateNotFound) or one of another Graph falls back to a full
 * round. Directory roles and latest sign-ins are read whole each time: a delta does not carry them.
 */
export async function graphUserRound(
  graph: GraphTenantClient,
  graphUrl: string,
  cursor: string | null,
): Promise<CloudUserRound> {
  const [rolesByUser, signIns] = await Promise.all([directoryRolesByUser(graph), lastSignInsByUser(graph)]);
  const signInActivity: CloudSignInActivity =
    signIns.available === true ? { available: true } : { available: false, reason: signIns.reason };
  const lastSignInByUser = signIns.available ? signIns.byUser : null;
  const recordOf = (user: GraphDeltaUser, managerId: string | null) =>
    cloudUserOf(user, {
      roles: rolesByUser.get(user.id!),
      managerId,
      lastSignInAt: lastSignInByUser?.get(user.id!) ?? null,
    });

  // A link of this Graph only: a cursor of another cloud (the connection changed) is not followed.
  const usable = cursor !== null && cursor.startsWith(`${graphUrl}/v1.0/users/delta?`);
  if (usable) {
    try {
      const users: CloudUserRecord[] = [];
      const removed: CloudUserRemoval[] = [];
      const managerUnchanged = new Set<string>();
      let next: string | null = null;
      for await (const page of graph.pages<GraphDeltaUser>(cursor)) {
        for (const user of page.value) {
          if (!user.id) continue;
          const gone = user['@removed'];
          if (gone !== undefined) {
            // "changed": in the recycle bin (restorable); "deleted": deleted for good (learn.microsoft.com,
            // "user: delta"). Either way the user is deleted in our copy.
            removed.push({
              externalId: user.id,
              reason: gone.reason === 'deleted' ? 'purged' : 'softDeleted',
            });
            continue;
          }
          if (user['manager@delta'] === undefined) managerUnchanged.add(user.id);
          users.push(recordOf(user, managerOfDelta(user)));
        }
        next = page.deltaLink ?? next;
      }
      return {
        kind: 'changes',
        users,
        removed,
        managerUnchanged,
        activity: { rolesByUser, lastSignInByUser },
        cursor: next,
        signInActivity,
      };
    } catch (error) {
      // The sync state is gone (Graph keeps it for a limited time): a full round reconciles instead.
      if (!isDeltaLinkExpired(error)) throw error;
    }
  }
  const users: CloudUserRecord[] = [];
  let next: string | null = null;
  for await (const page of graph.pages<GraphDeltaUser>('/users/delta', {
    query: { $select: `${USER_SELECT},manager` },
  })) {
    for (const user of page.value)
      if (user['@removed'] === undefined && user.id) users.push(recordOf(user, managerOfDelta(user)));
    next = page.deltaLink ?? next;
  }
  for await (const page of graph.pages<GraphDeltaUser>('/directory/deletedItems/microsoft.graph.user', {
    query: { $select: `${USER_SELECT},deletedDateTime` },
  }))
    users.push(...page.value.map((user) => cloudUserOf(user)));
  return { kind: 'complete', users, cursor: next, signInActivity };
}
