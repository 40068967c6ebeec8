import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudGroupRecord, CloudUserRecord } from '../cloud/provider.js';
import type { CloudUserRound } from '../cloud/user-round.js';
import { applyChanges, chunks, SYNC_BATCH_SIZE } from '../sync/rows.js';
import type { SyncWriteContext } from '../sync/sync-step.js';
import { Group, GroupMembership } from './group.entity.js';
import { deletedAtOf, syncedFieldsOf } from './user-cloud.js';
import { User } from './user.entity.js';

/**
 * The tenant sync's users and groups: our copy of the tenant's directory made to match the cloud. Each part
 * loads the tenant's existing rows once, decides every change in memory, and writes them with a few batched
 * statements (MikroORM's flush groups inserts and updates; removals are one DELETE).
 */

export interface UserSyncResult {
  counts: {
    usersCreated: number;
    usersUpdated: number;
    usersDeleted: number;
    usersRestored: number;
    /** Upstream users left out: their user principal name is held by another active user (issue #34 item 1). */
    usersSkipped?: number;
  };
  /** Our id of every user that is not deleted, by upstream id: what memberships refer to. */
  activeUserIds: Map<string, string>;
}

/** Whether a user we hold (not deleted) is gone upstream, as the round tells (user-round.ts). */
function goneUpstream(
  round: CloudUserRound,
  record: CloudUserRecord | undefined,
  removed: Set<string>,
  user: User,
) {
  if (record) return record.deletedAt !== null;
  // A complete round names every user: one absent is gone. A changes round names the removed ones.
  return round.kind === 'complete' || removed.has(user.externalId);
}

/**
 * Users: new ones inserted, changed ones updated, users deleted upstream (or gone from it) soft-deleted,
 * users restored upstream restored; `source` Synced for on-premises users; managers mapped last, once
 * every user has our id. A `changes` round touches only the users it names, plus every user's directory
 * roles and latest sign-in (its `activity`).
 */
export async function reconcileUsers(
  write: SyncWriteContext,
  round: CloudUserRound,
  onBatch: (done: number, total: number) => Promise<void>,
): Promise<UserSyncResult> {
  const { ctx, now } = write;
  const { em, scope, actor } = ctx;
  const tenantId = write.tenant.id;
  const upstream = [...round.users];
  const existing = await em.find(User, { tenantId });
  const byExternalId = new Map(existing.map((user) => [user.externalId, user]));
  const upstreamById = new Map(upstream.map((record) => [record.externalId, record]));
  const removed = new Set(round.kind === 'changes' ? round.removed.map((gone) => gone.externalId) : []);
  const counts: UserSyncResult['counts'] = {
    usersCreated: 0,
    usersUpdated: 0,
    usersDeleted: 0,
    usersRestored: 0,
  };

  // Deletions first: a user principal name freed upstream may be taken by a new user in this same sync.
  const deletedUpstream = existing.filter(
    (user) => !user.deletedAt && goneUpstream(round, upstreamById.get(user.externalId), removed, user),
  );
  // What the deleted-users list shows (hadLicenses) is read before the license step takes the seats back.
  const licensed = await usersHoldingLicenses(
    em,
    deletedUpstream.map((user) => user.id),
  );
  for (const user of deletedUpstream) {
    const record = upstreamById.get(user.externalId);
    user.deletedAt = (record && deletedAtOf(record)) ?? now;
    user.deletedBy = actor;
    user.hadLicenses = licensed.has(user.id);
    user.accountStatusAtDeletion = user.accountStatus;
    user.updatedAt = now;
    counts.usersDeleted++;
  }
  await em.flush();

  // Active UPNs are unique per organization and environment (users_active_upn_unique). An upstream record
  // that would take one another active user holds (a duplicate left upstream by a crashed write, a user of
  // another tenant) is skipped and counted, never the whole sync's death on a constraint.
  const claims = await activeUpnClaims(write, existing, upstream);
  let skipped = 0;
  const created = new Set<User>();
  const restored = new Set<User>();
  const changed = new Set<User>();
  let done = 0;
  for (const batch of chunks(upstream, SYNC_BATCH_SIZE)) {
    for (const record of batch) {
      const fields = syncedFieldsOf(record);
      const user = byExternalId.get(record.externalId);
      if (!record.deletedAt && !claimUpn(claims, record, user)) {
        skipped++;
        continue;
      }
      if (!user) {
        const deletedAt = deletedAtOf(record);
        const fresh = em.create(User, {
          ...scope,
          tenantId,
          externalId: record.externalId,
          ...fields,
          updatedAt: now,
          deletedAt,
          deletedBy: deletedAt ? actor : null,
        });
        byExternalId.set(record.externalId, fresh);
        created.add(fresh);
        counts.usersCreated++;
        continue;
      }
      if (!record.deletedAt && user.deletedAt) {
        user.deletedAt = null;
        user.deletedBy = null;
        user.hadLicenses = false;
        user.accountStatusAtDeletion = null;
        user.updatedAt = now;
        restored.add(user);
        counts.usersRestored++;
      }
      if (applyChanges(user, fields)) changed.add(user);
    }
    await em.flush();
    done += batch.length;
    await onBatch(done, upstream.length);
  }

  const activeUserIds = new Map<string, string>();
  for (const [externalId, user] of byExternalId) if (!user.deletedAt) activeUserIds.set(externalId, user.id);
  for (const record of upstream) {
    const user = byExternalId.get(record.externalId);
    if (!user) continue; // skipped above
    if (round.kind === 'changes' && round.managerUnchanged.has(record.externalId)) continue;
    const managerId = record.managerExternalId
      ? (byExternalId.get(record.managerExternalId)?.id ?? null)
      : null;
    if (user.managerId !== managerId) {
      user.managerId = managerId;
      changed.add(user);
    }
  }
  if (round.kind === 'changes') {
    // Roles and sign-ins change without the user changing: the round gives them for every user.
    const { rolesByUser, lastSignInByUser } = round.activity;
    for (const user of byExternalId.values()) {
      if (user.deletedAt || upstreamById.has(user.externalId)) continue;
      const lastSignIn = lastSignInByUser?.get(user.externalId);
      const activity = {
        directoryRoles: [...(rolesByUser.get(user.externalId) ?? [])].sort(),
        lastSignInAt: lastSignIn ? new Date(lastSignIn) : null,
      };
      if (applyChanges(user, activity)) changed.add(user);
    }
  }
  for (const user of changed) {
    if (created.has(user) || restored.has(user)) continue;
    user.updatedAt = now;
    counts.usersUpdated++;
  }
  await em.flush();
  if (skipped > 0) {
    counts.usersSkipped = skipped;
    write.warn(
      `${skipped} upstream user(s) skipped: their user principal name is already held by another active ` +
        `user (a duplicate in the cloud, or a user of another tenant); fix it in the cloud and sync again`,
    );
  }
  return { counts, activeUserIds };
}

/** Folded UPN → upstream id of the active user that holds it (another tenant's users: no upstream id). */
async function activeUpnClaims(
  write: SyncWriteContext,
  existing: User[],
  upstream: CloudUserRecord[],
): Promise<Map<string, string | null>> {
  const claims = new Map<string, string | null>();
  for (const user of existing)
    if (!user.deletedAt) claims.set(user.userPrincipalName.toLowerCase(), user.externalId);
  const wanted = [...new Set(upstream.map((record) => record.userPrincipalName.toLowerCase()))];
  if (wanted.length === 0) return claims;
  const others = await write.ctx.em.execute<Array<{ upn: string }>>(
    `select user_principal_name_folded as upn from users where organization_id = ? and environment = ?
        and tenant_id <> ? and deleted_at is null and user_principal_name_folded in (?)`,
    [write.ctx.scope.organizationId, write.ctx.scope.environment, write.tenant.id, wanted],
  );
  for (const { upn } of others) claims.set(upn, null);
  return claims;
}

/** Takes the record's UPN for it (moving its user's old claim) unless another active user holds it. */
function claimUpn(
  claims: Map<string, string | null>,
  record: CloudUserRecord,
  user: User | undefined,
): boolean {
  const upn = record.userPrincipalName.toLowerCase();
  const holder = claims.get(upn);
  if (holder !== undefined && holder !== record.externalId) return false;
  if (user && !user.deletedAt) {
    const previous = user.userPrincipalName.toLowerCase();
    if (previous !== upn && claims.get(previous) === record.externalId) claims.delete(previous);
  }
  claims.set(upn, record.externalId);
  return true;
}

/** Groups by upstream id (name kept current) and their memberships of users we know. */
export async function reconcileGroups(
  write: SyncWriteContext,
  upstreamGroups: CloudGroupRecord[],
  activeUserIds: Map<string, string>,
) {
  const { em, scope } = write.ctx;
  const tenantId = write.tenant.id;
  const groups = await em.find(Group, { tenantId });
  const memberships =
    groups.length > 0 ? await em.find(GroupMembership, { groupId: { $in: groups.map((g) => g.id) } }) : [];
  const counts = {
    groupsCreated: 0,
    groupsUpdated: 0,
    groupsRemoved: 0,
    membershipsCreated: 0,
    membershipsRemoved: 0,
  };
  const groupByExternalId = new Map(groups.map((group) => [group.externalId, group]));
  const upstreamIds = new Set(upstreamGroups.map((group) => group.externalId));
  const wanted = new Map<string, { groupId: string; userId: string }>();
  for (const record of upstreamGroups) {
    let group = groupByExternalId.get(record.externalId);
    if (!group) {
      group = new Group(scope, { tenantId, externalId: record.externalId, displayName: record.displayName });
      em.persist(group);
      counts.groupsCreated++;
    } else if (applyChanges(group, { displayName: record.displayName })) {
      counts.groupsUpdated++;
    }
    for (const memberExternalId of record.memberExternalIds) {
      const userId = activeUserIds.get(memberExternalId);
      if (userId) wanted.set(`${group.id}:${userId}`, { groupId: group.id, userId });
    }
  }
  const gone = groups.filter((group) => !upstreamIds.has(group.externalId));
  const goneIds = new Set(gone.map((group) => group.id));
  // Memberships of removed groups go with them (ON DELETE CASCADE) and are not counted twice.
  const stale = memberships.filter((m) => !goneIds.has(m.groupId) && !wanted.has(`${m.groupId}:${m.userId}`));
  if (stale.length > 0) {
    await em.nativeDelete(GroupMembership, { id: { $in: stale.map((m) => m.id) } });
    counts.membershipsRemoved = stale.length;
  }
  if (gone.length > 0) {
    await em.nativeDelete(Group, { id: { $in: [...goneIds] } });
    counts.groupsRemoved = gone.length;
  }
  const held = new Set(memberships.map((m) => `${m.groupId}:${m.userId}`));
  for (const [key, membership] of wanted) {
    if (held.has(key)) continue;
    em.persist(new GroupMembership(scope, membership));
    counts.membershipsCreated++;
  }
  await em.flush();
  return counts;
}

async function usersHoldingLicenses(em: EntityManager, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await em.execute<Array<{ user_id: string }>>(
    'select distinct user_id from license_assignments where user_id in (?)',
    [userIds],
  );
  return new Set(rows.map((row) => row.user_id));
}

/**
 * Our id of every user of the tenant that is not deleted, by upstream id: what other features' rows refer
 * to (license assignments). One statement; run after the users step, it sees the sync's users.
 */
export async function activeUserIdsOf(em: EntityManager, tenantId: string): Promise<Map<string, string>> {
  const rows = await em.execute<Array<{ id: string; external_id: string }>>(
    'select id, external_id from users where tenant_id = ? and deleted_at is null',
    [tenantId],
  );
  return new Map(rows.map((row) => [row.external_id, row.id]));
}
