import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { GroupMembership } from './group.entity.js';
import { User } from './user.entity.js';
import { AccountStatus } from './user.enums.js';
import { softDeleted, USER_STATES, userPath } from './user.rules.js';

/**
 * The soft delete's own rows (SPEC 3.4), once the cloud has deleted the user: in one transaction sign-in
 * blocked, sessions and refresh tokens revoked, groups left, licenses back to the pool, manager cleared, the
 * `user.deleted` event; profile and externalId kept for a restore.
 */
export function markDeleted(ctx: ServiceContext, tenant: Tenant, user: User): Promise<User> {
  const { id, tenantId } = user;
  return ctx.em.transactional(async (em) => {
    const now = ctx.clock.now();
    // Only the request that flips deleted_at goes on, so a concurrent DELETE cannot return seats twice.
    const marked = await em.nativeUpdate(
      User,
      { id, deletedAt: null },
      {
        deletedAt: now,
        deletedBy: ctx.actor,
        // The status before sign-in is blocked (one UPDATE reads the old row): what a restore gives back.
        accountStatusAtDeletion: raw('account_status'),
        hadLicenses: false, // set below when seats were returned
        accountStatus: AccountStatus.DISABLED,
        sessionsRevokedAt: now,
        managerId: null,
        updatedAt: now,
      },
    );
    if (marked === 0) {
      // Another request deleted it first: the same answer as a DELETE arriving after that one.
      const deleted = await em.findOne(User, { id, tenantId }, { refresh: true });
      throw deleted?.deletedAt
        ? softDeleted(deleted, USER_STATES.SOFT_DELETED)
        : new NotFoundError('User', id);
    }
    const groupsLeft = await em.nativeDelete(GroupMembership, { userId: id });
    const licensesReturned = await returnLicenses(em, ctx.scope, id);
    // The recycle bin shows whether the user held licenses (SPEC 2.6); a restore does not give them back.
    if (licensesReturned.length > 0) await em.nativeUpdate(User, { id }, { hadLicenses: true });
    await emitEvent(
      { ...ctx, em },
      {
        kind: 'user.deleted',
        severity: 'informational',
        tenant: tenant.eventRef,
        details: { userId: id, userPrincipalName: user.userPrincipalName, licensesReturned, groupsLeft },
        actionPath: userPath(user),
      },
    );
    return em.findOneOrFail(User, { id }, { refresh: true });
  });
}

/** Deletes the user's assignments and gives each seat back to its SKU, in one statement. */
async function returnLicenses(em: EntityManager, scope: Scope, userId: string): Promise<string[]> {
  const rows = await em.execute<Array<{ sku_id: string }>>(
    `with removed as (
       delete from license_assignments
        where user_id = ? and organization_id = ? and environment = ?
        returning tenant_id, sku_id
     ), seats as (
       select tenant_id, sku_id, count(*)::int as returned from removed group by tenant_id, sku_id
     ), counters as (
       update tenant_licenses as license
          set consumed = greatest(license.consumed - seats.returned, 0)
         from seats
        where license.tenant_id = seats.tenant_id and license.sku_id = seats.sku_id
        returning license.sku_id
     )
     select sku_id from removed order by sku_id`,
    [userId, scope.organizationId, scope.environment],
  );
  return rows.map((row) => row.sku_id);
}
