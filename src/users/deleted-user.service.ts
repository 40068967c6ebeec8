import { LockMode } from '@mikro-orm/postgresql';
import { DAY_MS } from '../core/clock.js';
import { undoInCloudOnFailure } from '../core/cloud-compensation.js';
import { ConflictError, invalid, NotFoundError } from '../core/errors.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { RECOVERY_WINDOW_DAYS, type DeletedUser, type PurgedUser } from './deleted-user.types.js';
import { User } from './user.entity.js';
import { AccountStatus } from './user.enums.js';
import type { RestoreUserInput } from './user.types.js';
import { assertUpnFree, flushClaimingUpn, upnDomainProblems, userPath } from './user.rules.js';

/** SPEC 8.3: a deleted user can be restored for RECOVERY_WINDOW_DAYS, then it is permanently deleted. */
export const RECOVERY_WINDOW_MS = RECOVERY_WINDOW_DAYS * DAY_MS;

/** The states of SPEC 3.4, as named in 409 details (`from`, `to`, `allowed`). */
const ACTIVE = 'active';
const SOFT_DELETED = 'soft-deleted';
const PERMANENTLY_DELETED = 'permanently deleted';

/** What a restore does not bring back (SPEC 3.4 "must be re-assigned"), told in the `user.restored` event. */
const NOT_RESTORED = ['groupMemberships', 'licenses', 'manager'] as const;

export function permanentDeletionAt(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + RECOVERY_WINDOW_MS);
}

/** Whole days left in the recovery window, rounded up; 0 once it has ended. */
export function daysRemaining(deletedAt: Date, now: Date): number {
  const left = permanentDeletionAt(deletedAt).getTime() - now.getTime();
  return Math.max(0, Math.ceil(left / DAY_MS));
}

function deletedUserOf(user: User, now: Date): DeletedUser {
  const deletedAt = user.deletedAt!;
  return {
    id: user.id,
    tenantId: user.tenantId,
    displayName: user.displayName,
    userPrincipalName: user.userPrincipalName,
    userType: user.userType,
    deletedAt,
    deletedBy: user.deletedBy,
    daysRemaining: daysRemaining(deletedAt, now),
    permanentDeletionAt: permanentDeletionAt(deletedAt),
    hadLicenses: user.hadLicenses,
  };
}

function notDeleted(id: string, to: string): ConflictError {
  return new ConflictError(
    `User ${id} is not deleted: only a deleted user can be ${to === ACTIVE ? 'restored' : 'permanently deleted'} (delete it first)`,
    { from: ACTIVE, to, allowed: [SOFT_DELETED] },
  );
}

/** 409 unless the user is soft-deleted and inside its recovery window. */
function assertRestorable(user: User, now: Date): void {
  if (!user.deletedAt) throw notDeleted(user.id, ACTIVE);
  const until = permanentDeletionAt(user.deletedAt);
  if (now.getTime() >= until.getTime()) {
    throw new ConflictError(
      `User ${user.id} was deleted more than ${RECOVERY_WINDOW_DAYS} days ago (${user.deletedAt.toISOString()}); the recovery window ended at ${until.toISOString()} and it can no longer be restored`,
      {
        from: SOFT_DELETED,
        to: ACTIVE,
        allowed: [PERMANENTLY_DELETED],
        deletedAt: user.deletedAt.toISOString(),
        recoverableUntil: until.toISOString(),
      },
    );
  }
}

function upnReused(userPrincipalName: string): ConflictError {
  return new ConflictError(
    `The userPrincipalName ${userPrincipalName} was taken by another user after this one was deleted; restore it under a new one ({"userPrincipalName": "..."})`,
    {
      fields: [{ field: 'userPrincipalName', problem: 'was reused by another user; give a new one' }],
      userPrincipalName,
    },
  );
}

interface PurgedRow {
  id: string;
  tenant_id: string;
  display_name: string;
  user_principal_name: string;
  deleted_at: string;
}

export interface PurgeOptions {
  /** Only users deleted at or before this moment (the purge job: 30 days ago). */
  deletedBefore?: Date;
  /** Purged by the job when the recovery window ended, rather than on request. */
  automatic: boolean;
}

/**
 * Permanently deletes users of the context's scope that are soft-deleted (and, for the job, past their
 * window) and emits `user.purged` for each, all in the caller's transaction. One DELETE ... RETURNING
 * decides which rows go: two processes purging the same users remove each once and announce it once.
 * Dependants go with the row (group memberships and license assignments cascade; users it managed keep
 * no manager). The upstream cloud is purged by the caller first.
 */
export async function purgeDeletedUsers(
  ctx: ServiceContext,
  userIds: string[],
  options: PurgeOptions,
): Promise<PurgedUser[]> {
  if (userIds.length === 0) return [];
  const { em, scope } = ctx;
  const rows = await em.execute<PurgedRow[]>(
    `delete from users
      where organization_id = ? and environment = ? and id in (?) and deleted_at is not null
        ${options.deletedBefore ? 'and deleted_at <= ?' : ''}
      returning id, tenant_id, display_name, user_principal_name, to_json(deleted_at) #>> '{}' as deleted_at`,
    [
      scope.organizationId,
      scope.environment,
      userIds,
      ...(options.deletedBefore ? [options.deletedBefore] : []),
    ],
  );
  if (rows.length === 0) return [];
  const tenantIds = [...new Set(rows.map((row) => row.tenant_id))];
  const tenants = new Map(
    (await em.find(Tenant, { id: { $in: tenantIds } })).map((tenant) => [tenant.id, tenant]),
  );
  const purgedAt = ctx.clock.now();
  const purged: PurgedUser[] = [];
  for (const row of rows) {
    const user: PurgedUser = {
      id: row.id,
      tenantId: row.tenant_id,
      displayName: row.display_name,
      userPrincipalName: row.user_principal_name,
      deletedAt: new Date(row.deleted_at),
      purgedAt,
    };
    await emitEvent(ctx, {
      kind: 'user.purged',
      severity: 'informational',
      tenant: tenants.get(user.tenantId)?.eventRef ?? null,
      details: {
        userId: user.id,
        userPrincipalName: user.userPrincipalName,
        displayName: user.displayName,
        deletedAt: user.deletedAt.toISOString(),
        automatic: options.automatic,
        reason: options.automatic
          ? `the ${RECOVERY_WINDOW_DAYS}-day recovery window ended`
          : 'permanently deleted on request',
        purgedBy: ctx.actor,
      },
      actionPath: `/tenants/${user.tenantId}/users/deleted`,
    });
    purged.push(user);
  }
  return purged;
}

/**
 * The recycle bin of a tenant (SPEC 3.4): soft-deleted users, restorable for 30 days by the clock, then
 * permanently deleted (by request, or by the purge job in deleted-user-purge.task.ts). Like every user write,
 * restore and permanent deletion call the upstream cloud first, then write our rows and the event in one
 * transaction (docs/decisions.md "Users").
 */
export class DeletedUserService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Newest deletion first, the users still restorable: one past its window is gone for the API (restore 409,
   * its OneDrive 404) even before the hourly purge job reaches it, so the recycle bin no longer lists it.
   */
  async list(tenantId: string, page: PageArgs): Promise<Page<DeletedUser>> {
    const now = this.ctx.clock.now();
    const [users, total] = await this.ctx.em.findAndCount(
      User,
      { tenantId, deletedAt: { $ne: null, $gt: new Date(now.getTime() - RECOVERY_WINDOW_MS) } },
      { orderBy: { deletedAt: 'desc', id: 'desc' }, limit: page.limit, offset: pageOffset(page) },
    );
    // Rows prove the tenant is the caller's; only an empty list needs to tell "none" from "no tenant".
    if (total === 0) await this.tenant(tenantId);
    return {
      items: users.map((user) => deletedUserOf(user, now)),
      pageInfo: { page: page.page, limit: page.limit, total },
    };
  }

  /**
   * Brings a soft-deleted user back within its 30 days: profile, object id and UPN (or the new UPN given,
   * when its own was reused), and the account status it had; not its groups, licenses or manager.
   */
  async restore(tenantId: string, id: string, input: RestoreUserInput | null): Promise<User> {
    const tenant = await this.tenant(tenantId);
    const user = await this.deletedUser(tenantId, id);
    assertRestorable(user, this.ctx.clock.now());

    const requested = input?.userPrincipalName?.trim().toLowerCase() || null;
    if (requested) {
      const problems = upnDomainProblems(requested, tenant);
      if (problems.length > 0) throw invalid(problems);
    }
    const userPrincipalName = requested ?? user.userPrincipalName;
    try {
      await assertUpnFree(this.ctx.em, userPrincipalName.toLowerCase(), id);
    } catch (error) {
      throw error instanceof ConflictError && !requested ? upnReused(userPrincipalName) : error;
    }

    const previousUserPrincipalName = user.userPrincipalName;
    const accountStatus = user.accountStatusAtDeletion ?? user.accountStatus;
    const { directory } = await this.ctx.cloud.forTenant(tenant.externalId);
    const cloudUser = await directory.restoreUser(user.externalId, {
      userPrincipalName,
      accountEnabled: accountStatus === AccountStatus.ENABLED,
    });
    if (!cloudUser) {
      throw new ConflictError(
        `User ${id} is no longer in the upstream cloud (permanently deleted there); it cannot be restored`,
        { from: SOFT_DELETED, to: ACTIVE, allowed: [PERMANENTLY_DELETED], upstream: 'missing' },
      );
    }

    const undo = async () => {
      if (userPrincipalName !== previousUserPrincipalName) {
        await directory.updateUser(user.externalId, { userPrincipalName: previousUserPrincipalName });
      }
      await directory.deleteUser(user.externalId);
    };
    let restoredMeanwhile = false;
    // The cloud change is undone (best effort) if our transaction fails, unless another request restored
    // the user in between: the cloud's state is then that request's.
    return undoInCloudOnFailure(
      () => (restoredMeanwhile ? Promise.resolve() : undo()),
      () =>
        this.ctx.em.transactional(async (em) => {
          const now = this.ctx.clock.now();
          // Locked and checked again: a purge, another restore or the window's end may have come in between.
          const current = await em.findOne(
            User,
            { id, tenantId },
            { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
          );
          if (!current) throw new NotFoundError('User', id);
          restoredMeanwhile = current.deletedAt === null;
          assertRestorable(current, now);
          const deletedAt = current.deletedAt!;
          const hadLicenses = current.hadLicenses;
          em.assign(current, {
            userPrincipalName,
            accountStatus,
            deletedAt: null,
            deletedBy: null,
            accountStatusAtDeletion: null,
            hadLicenses: false,
            managerId: null,
            updatedAt: now,
          });
          await flushClaimingUpn(em, userPrincipalName);
          await emitEvent(
            { ...this.ctx, em },
            {
              kind: 'user.restored',
              severity: 'informational',
              tenant: tenant.eventRef,
              details: {
                userId: id,
                userPrincipalName,
                ...(userPrincipalName !== previousUserPrincipalName ? { previousUserPrincipalName } : {}),
                deletedAt: deletedAt.toISOString(),
                accountStatus,
                hadLicenses,
                notRestored: [...NOT_RESTORED],
              },
              actionPath: userPath(current),
            },
          );
          return current;
        }),
    );
  }

  /** Irreversible: the user is purged upstream, then our row and its dependants; `user.purged` emitted. */
  async permanentlyDelete(tenantId: string, id: string): Promise<PurgedUser> {
    const tenant = await this.tenant(tenantId);
    const user = await this.deletedUser(tenantId, id);
    if (!user.deletedAt) throw notDeleted(id, PERMANENTLY_DELETED);
    // Idempotent upstream: if our transaction fails, a retry of the request converges.
    const purgedUpstream = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).directory.purgeUser(user.externalId);
    if (!purgedUpstream) {
      throw new ConflictError(
        `User ${id} is active again in the upstream cloud (restored there); sync the tenant instead`,
        { from: SOFT_DELETED, to: PERMANENTLY_DELETED, upstream: ACTIVE },
      );
    }
    const [purged] = await this.ctx.em.transactional((em) =>
      purgeDeletedUsers({ ...this.ctx, em }, [id], { automatic: false }),
    );
    if (!purged) throw new NotFoundError('User', id); // purged by a concurrent request
    return purged;
  }

  /** A user of the tenant whether deleted or not; 404 when absent, another tenant's, or another organization's. */
  private async deletedUser(tenantId: string, id: string): Promise<User> {
    const user = await this.ctx.em.findOne(User, { id, tenantId }, { refresh: true });
    if (!user) throw new NotFoundError('User', id);
    return user;
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
