import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { CloudUserPatch } from '../cloud/provider.js';
import { undoInCloudOnFailure } from '../core/cloud-compensation.js';
import { ConflictError, invalid, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { generatePassword, passwordProblems } from './password.js';
import { cloudPatchOf } from './user-cloud.js';
import { User } from './user.entity.js';
import { AccountStatus, MfaStatus, UserSource, UserType } from './user.enums.js';
import type { CreateUserInput, UpdateUserInput } from './user.types.js';
import {
  changedFields,
  normalizedChanges,
  profileDetailsOf,
  syncedReadOnlyFields,
  type UserChanges,
} from './user.changes.js';
import {
  assertKeepsUsageLocation,
  assertServiceAccountStaysBlocked,
  serviceAccountStatusProblems,
  assertUpnFree,
  flushClaimingUpn,
  softDeleted,
  upnDomainProblems,
  USER_STATES,
  userPath,
  validManager,
} from './user.rules.js';
import { markDeleted } from './user-soft-delete.js';
import { HELD_SKU_IDS, USER_COMPUTED_FIELDS } from './user-list-columns.js';
import { assertKeepsPrivilegedMfa, assertMayActOnPrivileged } from './privileged-account.js';

/**
 * A password we generated, kept only on the entity object the create mutation returns (the GraphQL
 * field `generatedPassword` reads it): never stored, never seen by a later request.
 */
const generatedPasswords = new WeakMap<User, string>();

export function generatedPasswordOf(user: User): string | null {
  return generatedPasswords.get(user) ?? null;
}

/**
 * Directory users of a tenant (SPEC 2.3, 3.4, 4.1).
 *
 * Every change calls the upstream cloud first and then writes our rows and the outbox event in one
 * transaction. The cloud is not called inside the transaction: with the simulated cloud, which
 * shares the connection pool, a burst of writes that each held a connection while waiting for a
 * second one would exhaust the pool and deadlock. Races on a UPN are settled by the partial unique
 * index users_active_upn_unique; the loser's cloud change is undone (best effort) and it gets 409.
 */
export class UserService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * A page of users as read-only views (findLeanPage: the hot list of the API skips entity construction) and, in
   * the same statement, the SKU ids each holds (oldest assignment first, as userLicensesLoader reads them),
   * remembered on each view (`userLicenses`): the list answers in one round trip instead of two (issue #11).
   */
  async listWithLicenses(
    tenantId: string,
    page: PageArgs,
    /** The fields asked of each user (selectedItemFields): only their columns are read; all without it. */
    fields?: ReadonlySet<string>,
  ): Promise<Page<User>> {
    const users = await findLeanPage(
      this.ctx,
      User,
      { tenantId, deletedAt: null },
      page,
      { createdAt: 'desc', id: 'desc' },
      [],
      // The SKU ids only when asked (a selection without `licenses` spares the subquery).
      fields && !fields.has('licenses') ? undefined : HELD_SKU_IDS,
      { fields, computed: USER_COMPUTED_FIELDS },
    );
    // Rows prove the tenant is the caller's; only an empty page needs to tell "no users" from "no tenant".
    if (users.items.length === 0) await this.tenant(tenantId);
    return users;
  }

  /** A user that is not deleted; 404 for a deleted user, another tenant's, or another organization's. */
  async get(tenantId: string, id: string): Promise<User> {
    const user = await this.ctx.em.findOne(User, { id, tenantId, deletedAt: null });
    if (user) return user;
    await this.tenant(tenantId); // says "Tenant ... not found" when that is the reason
    throw new NotFoundError('User', id);
  }

  /**
   * The user a change acts on: 404 when there is none, 409 `{from, to, allowed}` when it is soft-deleted
   * (DECISIONS: it is listed under deleted users and can be restored, so it exists; the move is refused).
   */
  async getForChange(tenantId: string, id: string, to: string): Promise<User> {
    const user = await this.ctx.em.findOne(User, { id, tenantId });
    if (!user) throw new NotFoundError('User', id);
    if (user.deletedAt) throw softDeleted(user, to);
    return user;
  }

  private async goneDuringUpdate(em: EntityManager, tenantId: string, id: string): Promise<Error> {
    const deleted = await em.findOne(User, { id, tenantId }, { refresh: true });
    return deleted?.deletedAt ? softDeleted(deleted, USER_STATES.ACTIVE) : new NotFoundError('User', id);
  }

  /** `requestKey`: the cloud write's idempotency key, when a job item makes it (CloudUserInput.requestKey). */
  async create(
    tenantId: string,
    input: CreateUserInput,
    options: { requestKey?: string } = {},
  ): Promise<User> {
    const tenant = await this.tenant(tenantId);
    // On create a null display name or status means "the default", so `cleared` does not matter here.
    const { changes: fields } = normalizedChanges(input);
    const userPrincipalName = input.userPrincipalName.trim().toLowerCase();
    const firstName = input.firstName.trim();
    const lastName = input.lastName.trim();
    const problems = upnDomainProblems(userPrincipalName, tenant);
    if (input.isServiceAccount) problems.push(...serviceAccountStatusProblems(fields.accountStatus));
    const suppliedPassword = input.password ?? null;
    if (suppliedPassword !== null)
      problems.push(...passwordProblems(suppliedPassword, tenant.passwordPolicy));
    const manager = fields.managerId
      ? await validManager(this.ctx.em, tenantId, fields.managerId, null, problems)
      : null;
    if (problems.length > 0) throw invalid(problems);
    await assertUpnFree(this.ctx.em, userPrincipalName, null);

    const password = suppliedPassword ?? generatePassword(tenant.passwordPolicy);
    const values = {
      ...profileDetailsOf(fields),
      userPrincipalName,
      firstName,
      lastName,
      displayName: fields.displayName ?? `${firstName} ${lastName}`,
      managerId: manager?.id ?? null,
      usageLocation: fields.usageLocation ?? null,
      accountStatus:
        fields.accountStatus ?? (input.isServiceAccount ? AccountStatus.DISABLED : AccountStatus.ENABLED),
      mfaStatus: fields.mfaStatus ?? MfaStatus.DISABLED,
      isServiceAccount: input.isServiceAccount ?? false,
    };
    const { managerId: _managerId, accountStatus, ...cloudProfile } = values;
    void _managerId; // the cloud knows the manager by its own id
    const { directory } = await this.ctx.cloud.forTenant(tenant.externalId);
    const cloudUser = await directory.createUser({
      ...cloudProfile,
      managerExternalId: manager?.externalId ?? null,
      accountEnabled: accountStatus === AccountStatus.ENABLED,
      userType: UserType.MEMBER,
      password,
      ...(options.requestKey ? { requestKey: options.requestKey } : {}),
    });

    // A keyed write is never undone: the cloud may have answered a user an earlier attempt (or another run of
    // the same job) created, and the next attempt under the key completes the save instead.
    const undo = options.requestKey
      ? async () => undefined
      : () => directory.deleteUser(cloudUser.externalId);
    const user = await undoInCloudOnFailure(undo, () =>
      this.ctx.em.transactional(async (em) => {
        const now = this.ctx.clock.now();
        const created = em.create(User, {
          ...this.ctx.scope,
          ...values,
          tenantId,
          externalId: cloudUser.externalId,
          userType: UserType.MEMBER,
          source: UserSource.CLOUD,
          // The cloud's own creation time, as the sync reads it (else the next sync counts the user updated).
          createdAt: new Date(cloudUser.createdAt),
          updatedAt: now,
        });
        await flushClaimingUpn(em, userPrincipalName);
        await emitEvent(
          { ...this.ctx, em },
          {
            kind: 'user.created',
            severity: 'informational',
            tenant: tenant.eventRef,
            details: { userId: created.id, userPrincipalName },
            actionPath: userPath(created),
          },
        );
        return created;
      }),
    );
    if (suppliedPassword === null) generatedPasswords.set(user, password);
    return user;
  }

  async update(tenantId: string, id: string, input: UpdateUserInput): Promise<User> {
    const [tenant, user] = await Promise.all([
      this.tenant(tenantId),
      this.getForChange(tenantId, id, USER_STATES.ACTIVE),
    ]);
    if (user.source === UserSource.SYNCED) {
      const refused = syncedReadOnlyFields(input);
      if (refused.length > 0) {
        throw new ConflictError(
          `User ${id} is synced from an on-premises directory; these fields are read-only: ${refused.join(', ')}`,
          {
            fields: refused.map((field) => ({ field, problem: 'is synced from on-premises and read-only' })),
            source: UserSource.SYNCED,
          },
        );
      }
    }
    assertKeepsPrivilegedMfa(user, input.mfaStatus);
    if (input.accountStatus === AccountStatus.DISABLED)
      assertMayActOnPrivileged(this.ctx, user, 'block its sign-in');
    const { changes: requested, cleared: problems } = normalizedChanges(input);
    if (requested.userPrincipalName !== undefined) {
      requested.userPrincipalName = requested.userPrincipalName.toLowerCase();
      problems.push(...upnDomainProblems(requested.userPrincipalName, tenant));
    }
    if (requested.managerId) await validManager(this.ctx.em, tenantId, requested.managerId, id, problems);
    if (problems.length > 0) throw invalid(problems);

    const changes = changedFields(user, requested);
    if (Object.keys(changes).length === 0) return user; // nothing to do: no cloud call, no event
    if (changes.userPrincipalName) await assertUpnFree(this.ctx.em, changes.userPrincipalName, id);
    if (changes.usageLocation === null) await assertKeepsUsageLocation(this.ctx.em, id);
    assertServiceAccountStaysBlocked(user, changes.accountStatus);

    const before = Object.fromEntries(
      Object.keys(changes).map((field) => [field, user[field as keyof UserChanges]]),
    ) as UserChanges;
    const { directory } = await this.ctx.cloud.forTenant(tenant.externalId);
    await directory.updateUser(user.externalId, await this.cloudPatchOf(changes));
    return undoInCloudOnFailure(
      async () => directory.updateUser(user.externalId, await this.cloudPatchOf(before)),
      () =>
        this.ctx.em.transactional(async (em) => {
          // Locked, so a delete running at the same time cannot interleave with this change.
          const current = await em.findOne(
            User,
            { id, tenantId, deletedAt: null },
            { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
          );
          if (!current) throw await this.goneDuringUpdate(em, tenantId, id);
          em.assign(current, { ...changes, updatedAt: this.ctx.clock.now() });
          await flushClaimingUpn(em, current.userPrincipalName);
          await emitEvent(
            { ...this.ctx, em },
            {
              kind: 'user.updated',
              severity: 'informational',
              tenant: tenant.eventRef,
              details: {
                userId: id,
                userPrincipalName: current.userPrincipalName,
                changedFields: Object.keys(changes),
              },
              actionPath: userPath(current),
            },
          );
          return current;
        }),
    );
  }

  /**
   * Soft delete with every effect of SPEC 3.4 in one transaction: sign-in blocked, sessions and refresh
   * tokens revoked, groups left, licenses back to the pool, manager cleared; profile and externalId kept.
   */
  async delete(tenantId: string, id: string): Promise<User> {
    const [tenant, user] = await Promise.all([
      this.tenant(tenantId),
      this.getForChange(tenantId, id, USER_STATES.SOFT_DELETED),
    ]);
    assertMayActOnPrivileged(this.ctx, user, 'delete it');
    // The cloud delete is idempotent: if our transaction fails, a retry of the DELETE converges.
    await (await this.ctx.cloud.forTenant(tenant.externalId)).directory.deleteUser(user.externalId);
    return markDeleted(this.ctx, tenant, user);
  }

  /** The cloud patch of `changes` (user-cloud.ts), the manager by the cloud's id for it. */
  private async cloudPatchOf(changes: UserChanges): Promise<CloudUserPatch> {
    const { managerId } = changes;
    if (managerId === undefined) return cloudPatchOf(changes);
    const manager = managerId ? await this.ctx.em.findOne(User, managerId) : null;
    return cloudPatchOf(changes, manager?.externalId ?? null);
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
