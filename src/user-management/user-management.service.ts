import { isCloudError } from '../cloud/cloud-error.js';
import { ConflictError, invalid, NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPageRows } from '../core/lean-read.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { generatePassword, passwordProblems } from '../users/password.js';
import { assertMayActOnPrivileged, assertPrivilegedResetForcesChange } from '../users/privileged-account.js';
import { EDITABLE_PROFILE_FIELDS, User } from '../users/user.entity.js';
import { UserSource } from '../users/user.enums.js';
import type { UpdateUserInput } from '../users/user.types.js';
import { userPath } from '../users/user.rules.js';
import { UserService } from '../users/user.service.js';
import { userSearchSql, type UserSearchArgs } from './user-search.js';
import type { PasswordReset, ReplaceUserInput, ResetPasswordInput } from './user-management.types.js';

/** What PUT replaces besides the names: cleared when left out. */
const REPLACED_FIELDS = [
  ...EDITABLE_PROFILE_FIELDS,
  'userPrincipalName',
  'usageLocation',
  'managerId',
] as const;
type ReplacedField = (typeof REPLACED_FIELDS)[number];

const normalized = (value: unknown): unknown => (typeof value === 'string' ? value.trim() || null : value);

/**
 * The user-management workspace (issue #14; /api/user-management-identity). Creating and changing users
 * goes through UserService, the same rules as the versioned API; this service adds the search, the full
 * replacement (PUT) and the password reset.
 */
export class UserManagementService {
  private readonly users: UserService;

  constructor(private readonly ctx: ServiceContext) {
    this.users = new UserService(ctx);
  }

  /** A page of the tenant's users by the filters and search; one statement. */
  async search(tenantId: string, args: UserSearchArgs, page: PageArgs): Promise<Page<User>> {
    const { where, orderBy, params } = userSearchSql(this.ctx.scope, tenantId, args);
    // Page through the order's index (users_display_name_order, the created_at index) and a separate capped
    // count: a window count beside the page read and sorted every matching user for each page (issue #11).
    const { rows, pageInfo } = await findPageRows<Record<string, unknown>>(
      this.ctx,
      'users',
      { sql: where, params },
      orderBy,
      page,
      '*',
      'u',
    );
    if (rows.length === 0) await this.tenant(tenantId); // an empty page of a foreign tenant is a 404
    return { items: rows.map((row) => this.ctx.em.map(User, row)), pageInfo };
  }

  /**
   * PUT: the input is the whole editable profile. Only the fields whose value changes are handed to
   * UserService.update, so a synced user may send its read-only values back unchanged (and gets 409 only
   * for a read-only field it tries to change), exactly as with PATCH.
   */
  async replace(tenantId: string, id: string, input: ReplaceUserInput): Promise<User> {
    const current = await this.users.get(tenantId, id);
    const wanted: Record<string, unknown> = {};
    for (const field of REPLACED_FIELDS) {
      wanted[field] = normalized(input[field as keyof ReplaceUserInput]) ?? null;
    }
    wanted.userPrincipalName = input.userPrincipalName.trim().toLowerCase();
    wanted.displayName =
      normalized(input.displayName) ?? `${input.firstName.trim()} ${input.lastName.trim()}`;
    if (input.accountStatus) wanted.accountStatus = input.accountStatus;
    if (input.mfaStatus) wanted.mfaStatus = input.mfaStatus;
    const changes: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(wanted)) {
      const have = current[field as ReplacedField];
      const same =
        field === 'userPrincipalName'
          ? String(have).toLowerCase() === value
          : (have ?? null) === (value ?? null);
      if (!same) changes[field] = value;
    }
    return this.users.update(tenantId, id, changes as UpdateUserInput);
  }

  /**
   * Sets a new password (supplied and checked against the tenant policy, or generated and returned once),
   * then revokes the user's sessions and refresh tokens in the cloud. Deleted users and users whose
   * password is managed on premises (synced) are refused with 409.
   */
  async resetPassword(tenantId: string, id: string, input: ResetPasswordInput): Promise<PasswordReset> {
    const tenant = await this.tenant(tenantId);
    const supplied = input.password ?? null;
    if (supplied !== null) {
      const problems = passwordProblems(supplied, tenant.passwordPolicy);
      if (problems.length > 0) throw invalid(problems);
    }
    const user = await this.ctx.em.findOne(User, { id, tenantId });
    if (!user) throw new NotFoundError('User', id);
    if (user.deletedAt) {
      throw new ConflictError(`User ${id} is deleted; restore it before resetting its password`, {
        state: 'deleted',
        deletedAt: user.deletedAt.toISOString(),
      });
    }
    if (user.source === UserSource.SYNCED) {
      throw new ConflictError(
        `User ${id} is synced from an on-premises directory: its password is managed there (reset it on premises, or enable password writeback)`,
        { source: UserSource.SYNCED },
      );
    }
    assertMayActOnPrivileged(this.ctx, user, 'reset its password');
    assertPrivilegedResetForcesChange(user, input.forceChangeAtNextSignIn);
    const password = supplied ?? generatePassword(tenant.passwordPolicy);
    const forceChangeAtNextSignIn = input.forceChangeAtNextSignIn ?? true;
    await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).userManagement
      .resetPassword(user.externalId, { password, forceChangeAtNextSignIn })
      .catch((error: unknown) => {
        // The cloud's own password rules (a banned-password list, say) can refuse what our policy let through.
        if (isCloudError(error, 'Refused') && error.refusal === 'PASSWORD_REJECTED')
          throw invalid([{ field: 'password', problem: `refused by the cloud: ${error.message}` }]);
        throw error;
      });
    // A new password must end the sessions opened with the old one.
    await (await this.ctx.cloud.forTenant(tenant.externalId)).directory.revokeSessions(user.externalId);
    const sessionsRevokedAt = this.ctx.clock.now();
    const updated = await this.ctx.em.transactional(async (em) => {
      await em.nativeUpdate(User, { id }, { sessionsRevokedAt, updatedAt: sessionsRevokedAt });
      await this.emitUserUpdated({ ...this.ctx, em }, tenant, user, ['password'], { sessionsRevoked: true });
      return em.findOneOrFail(User, { id }, { refresh: true });
    });
    return {
      user: updated,
      temporaryPassword: supplied === null ? password : null,
      forceChangeAtNextSignIn,
      sessionsRevokedAt,
    };
  }

  async emitUserUpdated(
    ctx: ServiceContext,
    tenant: Tenant,
    user: User,
    changedFields: string[],
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await emitEvent(ctx, {
      kind: 'user.updated',
      severity: 'informational',
      tenant: tenant.eventRef,
      details: { userId: user.id, userPrincipalName: user.userPrincipalName, changedFields, ...extra },
      actionPath: userPath(user),
    });
  }

  tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
