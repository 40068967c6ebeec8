import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, type FieldProblem } from '../core/errors.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { AccountStatus } from './user.enums.js';
import { User } from './user.entity.js';

/**
 * Rules on a user that every writer of users shares (UserService, guests, restores of deleted users): the
 * lifecycle states named in 409s, the UPN's domain and uniqueness, the manager chain.
 */

/** Where a user is in the API (an event's actionPath). */
export function userPath(user: Pick<User, 'id' | 'tenantId'>): string {
  return `/tenants/${user.tenantId}/users/${user.id}`;
}

const UPN_INDEX = 'users_active_upn_unique';

/** A user's lifecycle states of SPEC 3.4, as named in 409 details (`from`, `to`, `allowed`). */
export const USER_STATES = {
  ACTIVE: 'active',
  SOFT_DELETED: 'soft-deleted',
  PERMANENTLY_DELETED: 'permanently deleted',
} as const;

/** 409 for a move on a soft-deleted user: it exists (listed under deleted users) and can be restored. */
export function softDeleted(user: User, to: string): ConflictError {
  const since = user.deletedAt!.toISOString();
  return new ConflictError(
    `User ${user.id} is deleted (since ${since}): restore it first (POST /api/identity/users/${user.id}/restore)`,
    {
      from: USER_STATES.SOFT_DELETED,
      to,
      allowed: [USER_STATES.ACTIVE, USER_STATES.PERMANENTLY_DELETED],
      deletedAt: since,
    },
  );
}

function upnTaken(userPrincipalName: string): ConflictError {
  return new ConflictError(`The userPrincipalName ${userPrincipalName} is already taken by another user`, {
    fields: [{ field: 'userPrincipalName', problem: 'is already taken by another user' }],
    userPrincipalName,
  });
}

function isUpnClash(error: unknown): boolean {
  return (
    error instanceof UniqueConstraintViolationException &&
    (error as { constraint?: unknown }).constraint === UPN_INDEX
  );
}

/**
 * The domain of a UPN must be one of the tenant's verified domains (compared lower-case). `field` names the
 * input carrying the address (a backup restore's `target.location` names a mailbox owner the same way).
 */
export function upnDomainProblems(
  userPrincipalName: string,
  tenant: Tenant,
  field = 'userPrincipalName',
): FieldProblem[] {
  const domain = userPrincipalName.slice(userPrincipalName.lastIndexOf('@') + 1);
  return tenant.domains.includes(domain)
    ? []
    : [
        {
          field,
          problem: `must use one of the tenant's domains: ${tenant.domains.join(', ')}`,
        },
      ];
}

/** A user can be managed by an active user of the same tenant that is not below them. */
export async function validManager(
  em: EntityManager,
  tenantId: string,
  managerId: string,
  userId: string | null,
  problems: FieldProblem[],
): Promise<User | null> {
  if (managerId === userId) {
    problems.push({ field: 'managerId', problem: 'must not be the user themself' });
    return null;
  }
  const manager = await em.findOne(User, { id: managerId, tenantId, deletedAt: null });
  if (!manager) {
    problems.push({ field: 'managerId', problem: 'must be the id of a user of the same tenant' });
    return null;
  }
  if (userId && (await isAboveInChain(em, userId, managerId))) {
    problems.push({ field: 'managerId', problem: 'would make a management cycle' });
  }
  return manager;
}

/** Whether `userId` is somewhere in the management chain above `managerId` (one recursive query). */
async function isAboveInChain(em: EntityManager, userId: string, managerId: string): Promise<boolean> {
  const rows = await em.execute<Array<{ found: number }>>(
    `with recursive chain(id, manager_id) as (
       select id, manager_id from users where id = ?
       union
       select users.id, users.manager_id from users join chain on users.id = chain.manager_id
     )
     select 1 as found from chain where manager_id = ? limit 1`,
    [managerId, userId],
  );
  return rows.length > 0;
}

/**
 * A quick refusal before the cloud is called; the unique index still decides races. Compared on the folded
 * column (plain `=`), so the unique index serves it under the row-level security policies.
 */
export async function assertUpnFree(
  em: EntityManager,
  userPrincipalName: string,
  exceptUserId: string | null,
): Promise<void> {
  const taken = await em.count(User, {
    userPrincipalNameFolded: userPrincipalName.toLowerCase(),
    deletedAt: null,
    ...(exceptUserId ? { id: { $ne: exceptUserId } } : {}),
  });
  if (taken > 0) throw upnTaken(userPrincipalName);
}

/** Flushes `em`; losing a race for the UPN's unique index is 409 naming userPrincipalName. */
export async function flushClaimingUpn(em: EntityManager, userPrincipalName: string): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    throw isUpnClash(error) ? upnTaken(userPrincipalName) : error;
  }
}

/**
 * SPEC 2.3: a license needs a usage location, so a user who holds licenses keeps theirs (409 naming
 * usageLocation); the licenses go first. The mirror of the check on assignment (LicenseService).
 */
export async function assertKeepsUsageLocation(em: EntityManager, userId: string): Promise<void> {
  const held = await em.execute<Array<{ sku_id: string }>>(
    'select sku_id from license_assignments where user_id = ? order by sku_id',
    [userId],
  );
  if (held.length === 0) return;
  throw new ConflictError(
    `User ${userId} holds ${held.length} license(s); a licensed user needs a usage location: remove the licenses first`,
    {
      userId,
      field: 'usageLocation',
      reason: 'must stay set while the user holds licenses',
      skuIds: held.map((row) => row.sku_id),
    },
  );
}

const SERVICE_ACCOUNT_SIGN_IN = "a service account's interactive sign-in stays blocked (SPEC 2.3)";

/**
 * SPEC 2.3: a service account is a non-human member whose interactive sign-in is blocked. Created without a
 * status it is created Disabled; asking for Enabled is a contradiction in the request itself (400 naming
 * accountStatus).
 */
export function serviceAccountStatusProblems(status: AccountStatus | undefined | null): FieldProblem[] {
  return status === AccountStatus.ENABLED
    ? [{ field: 'accountStatus', problem: `must be Disabled: ${SERVICE_ACCOUNT_SIGN_IN}` }]
    : [];
}

/** Enabling an existing service account's sign-in: 409 naming accountStatus (the mirror of its licenses' 409). */
export function assertServiceAccountStaysBlocked(user: User, status: AccountStatus | undefined): void {
  if (!user.isServiceAccount || status !== AccountStatus.ENABLED) return;
  throw new ConflictError(`User ${user.id} is a service account: ${SERVICE_ACCOUNT_SIGN_IN}`, {
    userId: user.id,
    field: 'accountStatus',
    reason: SERVICE_ACCOUNT_SIGN_IN,
  });
}
