import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudSkuRecord,
  CloudUserRecord,
} from '../cloud/provider.js';
import type { Scope } from '../core/scope.js';
import { LicenseAssignment, TenantLicense } from '../licenses/license.entity.js';
import { Group, GroupMembership } from '../users/group.entity.js';
import { User } from '../users/user.entity.js';
import {
  AccountStatus,
  GuestSource,
  InvitationStatus,
  MfaStatus,
  UserSource,
  UserType,
} from '../users/user.enums.js';

/**
 * The steps of a sync that make our copy of a tenant's directory match the upstream cloud.
 * Each step loads the tenant's existing rows once, decides every change in memory, and writes them
 * with a few batched statements (MikroORM's flush groups inserts and updates; removals are one DELETE).
 */
export interface DirectoryStepContext {
  em: EntityManager;
  scope: Scope;
  tenantId: string;
  now: Date;
  /** Recorded as `deletedBy` of users removed upstream. */
  actor: string;
}

/** Rows written per flush, so memory and statement size stay bounded for large tenants. */
export const SYNC_BATCH_SIZE = 500;

/** Assigns only the values that differ; tells whether anything did. */
function applyChanges<T extends object>(target: T, values: Partial<T>): boolean {
  let changed = false;
  for (const key of Object.keys(values) as Array<keyof T>) {
    const next = values[key] as T[keyof T];
    const current = target[key];
    const same =
      current instanceof Date && next instanceof Date
        ? current.getTime() === next.getTime()
        : current === next;
    if (!same) {
      target[key] = next;
      changed = true;
    }
  }
  return changed;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

const toDate = (iso: string | null): Date | null => (iso ? new Date(iso) : null);

/** Our user columns as the upstream record says (everything but manager and deletion, handled apart). */
function userFieldsOf(record: CloudUserRecord) {
  return {
    userPrincipalName: record.userPrincipalName,
    displayName: record.displayName,
    firstName: record.firstName,
    lastName: record.lastName,
    jobTitle: record.jobTitle,
    department: record.department,
    companyName: record.companyName,
    officeLocation: record.officeLocation,
    businessPhone: record.businessPhone,
    mobilePhone: record.mobilePhone,
    employeeId: record.employeeId,
    employeeType: record.employeeType,
    usageLocation: record.usageLocation,
    accountStatus: record.accountEnabled ? AccountStatus.ENABLED : AccountStatus.DISABLED,
    mfaStatus: record.mfaStatus as MfaStatus,
    userType: record.userType as UserType,
    source: record.onPremisesSynced ? UserSource.SYNCED : UserSource.CLOUD,
    isServiceAccount: record.isServiceAccount,
    lastSignInAt: toDate(record.lastSignInAt),
    createdAt: new Date(record.createdAt),
    ...guestFieldsOf(record),
  } satisfies Partial<User>;
}

/**
 * A guest's address and invitation (SPEC 2.6 "Guest user"); members have none. A guest the cloud tells
 * nothing more about is a B2B collaboration guest with no invitation (N/A).
 */
function guestFieldsOf(record: CloudUserRecord) {
  const guest = record.userType === 'Guest' ? record.guest : null;
  const isGuest = record.userType === 'Guest';
  return {
    email: record.mail?.toLowerCase() ?? null,
    guestSource: isGuest ? ((guest?.source as GuestSource) ?? GuestSource.B2B_COLLABORATION) : null,
    invitationStatus: isGuest
      ? ((guest?.invitationStatus as InvitationStatus) ?? InvitationStatus.NOT_APPLICABLE)
      : null,
    invitedBy: guest?.invitedBy ?? null,
    invitedAt: toDate(guest?.invitedAt ?? null),
    invitationSentAt: toDate(guest?.invitationSentAt ?? null),
    invitationAcceptedAt: toDate(guest?.acceptedAt ?? null),
  } satisfies Partial<User>;
}

export interface UserStepResult {
  counts: { usersCreated: number; usersUpdated: number; usersDeleted: number; usersRestored: number };
  /** Our id of every user that is not deleted, by upstream id: what assignments and memberships refer to. */
  activeUserIds: Map<string, string>;
}

/**
 * Users: new ones inserted, changed ones updated, users deleted upstream (or gone from it) soft-deleted,
 * users restored upstream restored; `source` Synced for on-premises users; managers mapped last, once
 * every user has our id.
 */
export async function reconcileUsers(
  step: DirectoryStepContext,
  upstream: CloudUserRecord[],
  onBatch: (done: number, total: number) => Promise<void>,
): Promise<UserStepResult> {
  const { em, scope, tenantId, now, actor } = step;
  const existing = await em.find(User, { tenantId });
  const byExternalId = new Map(existing.map((user) => [user.externalId, user]));
  const upstreamById = new Map(upstream.map((record) => [record.externalId, record]));
  const counts = { usersCreated: 0, usersUpdated: 0, usersDeleted: 0, usersRestored: 0 };

  // Deletions first: a user principal name freed upstream may be taken by a new user in this same sync.
  const deletedUpstream = existing.filter((user) => {
    const record = upstreamById.get(user.externalId);
    return !user.deletedAt && !(record && !record.deletedAt);
  });
  // What the deleted-users list shows (hadLicenses) is read before the license step takes the seats back.
  const licensed = await usersHoldingLicenses(
    em,
    deletedUpstream.map((user) => user.id),
  );
  for (const user of deletedUpstream) {
    const record = upstreamById.get(user.externalId);
    user.deletedAt = toDate(record?.deletedAt ?? null) ?? now;
    user.deletedBy = actor;
    user.hadLicenses = licensed.has(user.id);
    user.accountStatusAtDeletion = user.accountStatus;
    user.updatedAt = now;
    counts.usersDeleted++;
  }
  await em.flush();

  const created = new Set<User>();
  const restored = new Set<User>();
  const changed = new Set<User>();
  let done = 0;
  for (const batch of chunks(upstream, SYNC_BATCH_SIZE)) {
    for (const record of batch) {
      const fields = userFieldsOf(record);
      const user = byExternalId.get(record.externalId);
      if (!user) {
        const deleted = Boolean(record.deletedAt);
        const fresh = em.create(User, {
          ...scope,
          tenantId,
          externalId: record.externalId,
          ...fields,
          updatedAt: now,
          deletedAt: toDate(record.deletedAt),
          deletedBy: deleted ? actor : null,
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
    const user = byExternalId.get(record.externalId)!;
    const managerId = record.managerExternalId
      ? (byExternalId.get(record.managerExternalId)?.id ?? null)
      : null;
    if (user.managerId !== managerId) {
      user.managerId = managerId;
      changed.add(user);
    }
  }
  for (const user of changed) {
    if (created.has(user) || restored.has(user)) continue;
    user.updatedAt = now;
    counts.usersUpdated++;
  }
  await em.flush();
  return { counts, activeUserIds };
}

/**
 * Licenses and assignments: SKUs by product id with `total` = prepaid seats; assignments of users we
 * know (and that are not deleted) added or removed; `consumed` recomputed from the assignments.
 */
export async function reconcileLicenses(
  step: DirectoryStepContext,
  upstreamSkus: CloudSkuRecord[],
  upstreamAssignments: CloudLicenseAssignmentRecord[],
  activeUserIds: Map<string, string>,
) {
  const { em, scope, tenantId, now } = step;
  const [licenses, assignments] = await Promise.all([
    em.find(TenantLicense, { tenantId }),
    em.find(LicenseAssignment, { tenantId }),
  ]);
  const counts = {
    licensesCreated: 0,
    licensesUpdated: 0,
    licensesRemoved: 0,
    assignmentsCreated: 0,
    assignmentsRemoved: 0,
  };
  const skuIds = new Set(upstreamSkus.map((sku) => sku.skuId));
  const wanted = new Map<string, { userId: string; skuId: string }>();
  for (const assignment of upstreamAssignments) {
    const userId = activeUserIds.get(assignment.userExternalId);
    if (userId && skuIds.has(assignment.skuId)) {
      wanted.set(`${userId}:${assignment.skuId}`, { userId, skuId: assignment.skuId });
    }
  }
  const held = new Set(assignments.map((a) => `${a.userId}:${a.skuId}`));
  const stale = assignments.filter((a) => !wanted.has(`${a.userId}:${a.skuId}`));
  if (stale.length > 0) {
    await em.nativeDelete(LicenseAssignment, { id: { $in: stale.map((a) => a.id) } });
    counts.assignmentsRemoved = stale.length;
  }
  for (const [key, assignment] of wanted) {
    if (held.has(key)) continue;
    em.persist(new LicenseAssignment(scope, { tenantId, ...assignment, assignedAt: now }));
    counts.assignmentsCreated++;
  }

  const consumedBySku = new Map<string, number>();
  for (const { skuId } of wanted.values()) consumedBySku.set(skuId, (consumedBySku.get(skuId) ?? 0) + 1);
  const licenseBySku = new Map(licenses.map((license) => [license.skuId, license]));
  for (const sku of upstreamSkus) {
    const fields = {
      skuPartNumber: sku.skuPartNumber,
      name: sku.name,
      total: sku.prepaidUnits,
      consumed: consumedBySku.get(sku.skuId) ?? 0,
    };
    const existingLicense = licenseBySku.get(sku.skuId);
    if (!existingLicense) {
      const license = new TenantLicense(scope, { tenantId, skuId: sku.skuId, ...fields });
      license.consumed = fields.consumed;
      em.persist(license);
      counts.licensesCreated++;
    } else if (applyChanges(existingLicense, fields)) {
      counts.licensesUpdated++;
    }
  }
  const gone = licenses.filter((license) => !skuIds.has(license.skuId));
  if (gone.length > 0) {
    await em.nativeDelete(TenantLicense, { id: { $in: gone.map((license) => license.id) } });
    counts.licensesRemoved = gone.length;
  }
  await em.flush();
  return counts;
}

/** Groups by upstream id (name kept current) and their memberships of users we know. */
export async function reconcileGroups(
  step: DirectoryStepContext,
  upstreamGroups: CloudGroupRecord[],
  activeUserIds: Map<string, string>,
) {
  const { em, scope, tenantId } = step;
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
