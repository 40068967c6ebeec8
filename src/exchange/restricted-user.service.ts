import { LockMode } from '@mikro-orm/postgresql';
import type { CloudRestrictedSenderRecord } from '../cloud/provider.js';
import { ConflictError, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { RestrictedUser } from './restricted-user.entity.js';
import { RestrictionStatus } from './restricted-user.enums.js';
import { allPages } from '../cloud/pages.js';

/** 409 for a move SPEC 3.3 does not list: the only one is Restricted → Unblocked. */
function alreadyUnblocked(row: RestrictedUser): ConflictError {
  return new ConflictError(
    `Restricted user ${row.id} is already Unblocked (at ${row.unblockedAt?.toISOString() ?? 'an unknown time'})`,
    { from: RestrictionStatus.UNBLOCKED, to: RestrictionStatus.UNBLOCKED, allowed: [] },
  );
}

/**
 * Copies the cloud's restrictions of one tenant into restricted_users in ONE statement: new ones are
 * inserted, known ones take the cloud's status and fields (a row changes only when something differs),
 * and each is linked to our user with the same upstream id, when there is one.
 */
const UPSERT_SQL = `
  insert into restricted_users (id, organization_id, environment, tenant_id, external_id, user_id,
    user_principal_name, display_name, restricted_at, reason, status, action_required, unblocked_at,
    created_at, updated_at)
  select gen_random_uuid(), ?, ?, ?, r.external_id, u.id, r.user_principal_name, r.display_name,
    r.restricted_at, r.reason, r.status, r.action_required, r.unblocked_at, ?, ?
  from jsonb_to_recordset(?::jsonb) as r(external_id text, user_external_id text, user_principal_name text,
    display_name text, restricted_at timestamptz, reason text, status text, action_required text,
    unblocked_at timestamptz)
  left join users u on u.organization_id = ? and u.environment = ? and u.tenant_id = ?
    and u.external_id = r.user_external_id
  on conflict (organization_id, environment, tenant_id, external_id) do update set
    user_id = excluded.user_id, user_principal_name = excluded.user_principal_name,
    display_name = excluded.display_name, reason = excluded.reason, status = excluded.status,
    action_required = excluded.action_required, unblocked_at = excluded.unblocked_at,
    updated_at = excluded.updated_at
  where (restricted_users.user_id, restricted_users.user_principal_name, restricted_users.display_name,
      restricted_users.reason, restricted_users.status, restricted_users.action_required,
      restricted_users.unblocked_at)
    is distinct from (excluded.user_id, excluded.user_principal_name, excluded.display_name,
      excluded.reason, excluded.status, excluded.action_required, excluded.unblocked_at)`;

/**
 * Exchange restricted users (SPEC 2.6 "Restricted user", 3.3, 4.2): mailboxes the upstream cloud blocked
 * from sending. The cloud owns them: every list reads the cloud and refreshes our rows (one upsert), then
 * pages from our table. An unblock goes to the cloud first, then our row and `restricted_user.unblocked`
 * are written in one transaction.
 */
export class RestrictedUserService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Current restrictions (status Restricted), newest first. */
  list(tenantId: string, page: PageArgs): Promise<Page<RestrictedUser>> {
    return this.page(tenantId, page, { status: RestrictionStatus.RESTRICTED });
  }

  /** Every restriction, current and unblocked, newest restriction first. */
  history(tenantId: string, page: PageArgs): Promise<Page<RestrictedUser>> {
    return this.page(tenantId, page, {});
  }

  /** One restriction of the tenant; 404 when absent, another tenant's, or another organization's. */
  async get(tenantId: string, id: string): Promise<RestrictedUser> {
    const row = await this.ctx.em.findOne(RestrictedUser, { id, tenantId }, { refresh: true });
    if (!row) throw new NotFoundError('Restricted user', id);
    return row;
  }

  /** Restricted → Unblocked (SPEC 3.3): the cloud lifts the restriction, then our row follows. */
  async unblock(tenantId: string, id: string): Promise<RestrictedUser> {
    const tenant = await this.tenant(tenantId);
    const row = await this.get(tenantId, id);
    if (row.status !== RestrictionStatus.RESTRICTED) throw alreadyUnblocked(row);
    // Idempotent upstream: if our transaction fails, a retry converges.
    const cloud = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).exchange.unblockSender(row.externalId);
    if (!cloud) {
      throw new ConflictError(`Restricted user ${id} is no longer known to the upstream cloud`, {
        from: RestrictionStatus.RESTRICTED,
        to: RestrictionStatus.UNBLOCKED,
        upstream: 'missing',
      });
    }
    return this.ctx.em.transactional(async (em) => {
      const current = await em.findOne(
        RestrictedUser,
        { id, tenantId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!current) throw new NotFoundError('Restricted user', id);
      // A list may have copied our own unblock from the cloud in between (Unblocked, by nobody yet).
      const copiedFromCloud =
        current.status === RestrictionStatus.UNBLOCKED &&
        current.unblockedBy === null &&
        current.unblockedAt?.toISOString() === cloud.unblockedAt;
      if (current.status !== RestrictionStatus.RESTRICTED && !copiedFromCloud)
        throw alreadyUnblocked(current);
      const now = this.ctx.clock.now();
      em.assign(current, {
        status: RestrictionStatus.UNBLOCKED,
        unblockedAt: cloud.unblockedAt ? new Date(cloud.unblockedAt) : now,
        unblockedBy: this.ctx.actor,
        updatedAt: now,
      });
      await em.flush();
      await emitEvent(
        { ...this.ctx, em },
        {
          kind: 'restricted_user.unblocked',
          severity: 'informational',
          tenant: tenant.eventRef,
          details: {
            restrictedUserId: current.id,
            userId: current.userId,
            userPrincipalName: current.userPrincipalName,
            displayName: current.displayName,
            reason: current.reason,
            restrictedAt: current.restrictedAt.toISOString(),
            unblockedAt: current.unblockedAt!.toISOString(),
            unblockedBy: this.ctx.actor,
          },
          actionPath: `/tenants/${tenantId}/exchange/restricted-users/${current.id}`,
        },
      );
      return current;
    });
  }

  private async page(
    tenantId: string,
    page: PageArgs,
    where: { status?: RestrictionStatus },
  ): Promise<Page<RestrictedUser>> {
    const tenant = await this.tenant(tenantId);
    await this.refresh(
      tenant,
      await allPages((await this.ctx.cloud.forTenant(tenant.externalId)).exchange.listRestrictedSenders()),
    );
    // The lean page and capped count (issue #11), through restricted_users_restricted_at_index (history) or
    // restricted_users_status_index (current restrictions).
    return findLeanPage(this.ctx, RestrictedUser, { tenantId, ...where }, page, {
      restrictedAt: 'desc',
      id: 'desc',
    });
  }

  private async refresh(tenant: Tenant, records: CloudRestrictedSenderRecord[]): Promise<void> {
    if (records.length === 0) return;
    const { scope } = this.ctx;
    const now = this.ctx.clock.now();
    const rows = records.map((record) => ({
      external_id: record.externalId,
      user_external_id: record.userExternalId,
      user_principal_name: record.userPrincipalName,
      display_name: record.displayName,
      restricted_at: record.restrictedAt,
      reason: record.reason,
      status: record.status,
      action_required: record.actionRequired,
      unblocked_at: record.unblockedAt,
    }));
    await this.ctx.em.execute(
      UPSERT_SQL,
      [
        scope.organizationId,
        scope.environment,
        tenant.id,
        now,
        now,
        JSON.stringify(rows),
        scope.organizationId,
        scope.environment,
        tenant.id,
      ],
      'run',
    );
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
