import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { undoInCloudOnFailure } from '../core/cloud-compensation.js';
import { DAY_MS } from '../core/clock.js';
import { ConflictError, invalid, NotFoundError } from '../core/errors.js';
import { findLeanPage, findPageRows } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import {
  STALE_GUEST_DAYS,
  type GuestUser,
  type InviteGuestInput,
  type StaleGuestPage,
} from './guest.types.js';
import { displayNameFromEmail, guestOf, STALE_COLUMNS, staleGuestOf, type StaleRow } from './guest.views.js';
import { UserSyncState } from './user-sync-state.entity.js';
import { User } from './user.entity.js';
import { AccountStatus, GuestSource, InvitationStatus, UserSource, UserType } from './user.enums.js';
import { flushClaimingUpn, userPath } from './user.rules.js';
import { UserService } from './user.service.js';

/**
 * The guest lifecycle of SPEC 3.3 as named in 409 details (`from`, `to`, `allowed`): an invitation is sent
 * (Pending), redeemed (Accepted), reviewed (stale guests) and removed. Guests that came in without an
 * invitation (N/A) are active from the start. A resend is the one move of a Pending invitation; an Accepted or
 * N/A guest can only be removed.
 */
const INVITATION_SENT = 'Invitation Sent';
const REMOVAL = 'Removal';

export interface GuestListFilter {
  invitationStatus?: InvitationStatus | null;
}

function notAGuest(user: User): ConflictError {
  return new ConflictError(
    `User ${user.id} is a member, not a guest: the guest routes act on guests only (members are deleted with DELETE /v1/tenants/${user.tenantId}/users/${user.id})`,
    { userType: user.userType, allowed: [UserType.GUEST] },
  );
}

function addressTaken(email: string, existing: { id: string; userType: string }): ConflictError {
  return new ConflictError(
    `${email} is already in this tenant (${existing.userType === UserType.GUEST ? 'guest' : 'user'} ${existing.id})`,
    {
      fields: [{ field: 'email', problem: 'is already a user or guest of this tenant' }],
      email,
      existingUserId: existing.id,
      userType: existing.userType,
    },
  );
}

function notPending(user: Pick<User, 'id' | 'invitationStatus'>, status: string | null): ConflictError {
  const from = status ?? InvitationStatus.NOT_APPLICABLE;
  return new ConflictError(
    `The invitation of guest ${user.id} is ${from}: an invitation can only be resent while it is Pending`,
    { from, to: INVITATION_SENT, allowed: [REMOVAL], invitationStatus: from },
  );
}

/**
 * Guests of a tenant (SPEC 2.6, 3.3, 4.2): list, invite, resend, stale guests, remove. Like every user write,
 * invite and resend call the upstream cloud first, then write our row and the event in one transaction;
 * removal is the soft delete of UserService (a removed guest is in the deleted users for 30 days).
 */
export class GuestService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Guests that are not removed, newest first; one statement for the page and its total. */
  async list(tenantId: string, page: PageArgs, filter: GuestListFilter = {}): Promise<Page<GuestUser>> {
    const users = await findLeanPage(
      this.ctx,
      User,
      {
        tenantId,
        userType: UserType.GUEST,
        deletedAt: null,
        invitationStatus: filter.invitationStatus ?? undefined,
      },
      page,
      { createdAt: 'desc', id: 'desc' },
    );
    if (users.items.length === 0) await this.tenant(tenantId);
    return { items: users.items.map(guestOf), pageInfo: users.pageInfo };
  }

  /**
   * SPEC 4.2 stale guest criteria, each counted in days by the clock: no sign-in for 90 days or more; accepted
   * (or added without invitation) but never signed in for 90 days since; an invitation pending for 90 days
   * since it was last sent. Longest inactive first.
   */
  async stale(tenantId: string, page: PageArgs): Promise<StaleGuestPage> {
    const now = this.ctx.clock.now();
    const cutoff = new Date(now.getTime() - STALE_GUEST_DAYS * DAY_MS);
    // Without sign-in data (the last sync's, user-sync-state.entity.ts) only an unredeemed invitation is
    // known stale: a guest that accepted may have signed in yesterday, so it is not guessed either way.
    const unavailable =
      (await this.ctx.em.findOne(UserSyncState, { tenantId }, { fields: ['signInDataUnavailable'] }))
        ?.signInDataUnavailable ?? null;
    // Paged through users_stale_guests_index (longest inactive first) with a separate capped count: a window count
    // over the tenant's guests read and sorted them all for every page (issue #11). guest_inactive_since is a
    // stored generated column (User.guestInactiveSince), null unless a guest that is not removed: as an expression
    // here the policy kept it from the index, and a separate "is a guest" condition would skew the estimate.
    const { rows, pageInfo } = await findPageRows<StaleRow>(
      this.ctx,
      'users',
      {
        sql: `organization_id = ? and environment = ? and tenant_id = ? and guest_inactive_since <= ?${
          unavailable === null ? '' : ' and invitation_status = ?'
        }`,
        params: [
          this.ctx.scope.organizationId,
          this.ctx.scope.environment,
          tenantId,
          cutoff,
          ...(unavailable === null ? [] : [InvitationStatus.PENDING]),
        ],
      },
      'guest_inactive_since asc, id asc',
      page,
      STALE_COLUMNS,
    );
    if (rows.length === 0) await this.tenant(tenantId);
    return {
      items: rows.map((row) => staleGuestOf(row, now)),
      pageInfo,
      signInDataAvailable: unavailable === null,
      signInDataUnavailableReason: unavailable,
    };
  }

  /**
   * Invites a guest (SPEC 2.6 "Guest invitation"): created upstream as Pending, mailed unless sendInvitation
   * is false; 409 when the address is already a user or guest of the tenant. Emits `guest.invited`.
   */
  async invite(tenantId: string, input: InviteGuestInput): Promise<GuestUser> {
    const tenant = await this.tenant(tenantId);
    const email = input.email.trim().toLowerCase();
    const domain = email.slice(email.indexOf('@') + 1);
    if (tenant.domains.includes(domain)) {
      throw invalid([
        {
          field: 'email',
          problem: `is on one of the tenant's own domains (${domain}): create a member user instead`,
        },
      ]);
    }
    await this.assertAddressFree(this.ctx.em, tenantId, email);
    const displayName = input.displayName?.trim() || displayNameFromEmail(email);
    const [firstName, ...rest] = displayName.split(/\s+/);
    const sendInvitation = input.sendInvitation ?? true;
    const personalMessage = input.personalMessage?.trim() || null;
    const redirectUrl = input.redirectUrl?.trim() || null;

    const { directory } = await this.ctx.cloud.forTenant(tenant.externalId);
    const cloudGuest = await directory.inviteGuest({
      email,
      displayName,
      firstName,
      lastName: rest.join(' '),
      personalMessage,
      redirectUrl,
      sendInvitation,
      invitedBy: this.ctx.actor,
    });
    const undo = async () => {
      await directory.deleteUser(cloudGuest.externalId);
      await directory.purgeUser(cloudGuest.externalId);
    };
    const guest = await undoInCloudOnFailure(undo, () =>
      this.ctx.em.transactional(async (em) => {
        // Two invitations of one address at once: the second waits here, then finds the first.
        await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
          `guest-invite:${tenantId}:${email}`,
        ]);
        await this.assertAddressFree(em, tenantId, email);
        const invitedAt = new Date(cloudGuest.guest?.invitedAt ?? this.ctx.clock.now().toISOString());
        const sentAt = cloudGuest.guest?.invitationSentAt ?? null;
        const now = this.ctx.clock.now();
        const created = em.create(User, {
          ...this.ctx.scope,
          tenantId,
          externalId: cloudGuest.externalId,
          // As the cloud names it (name_domain#EXT#@...): sync compares it as is.
          userPrincipalName: cloudGuest.userPrincipalName,
          displayName,
          firstName: cloudGuest.firstName,
          lastName: cloudGuest.lastName,
          userType: UserType.GUEST,
          source: UserSource.CLOUD,
          accountStatus: AccountStatus.ENABLED,
          email,
          guestSource: GuestSource.INVITED_USER,
          invitationStatus: InvitationStatus.PENDING,
          invitedBy: this.ctx.actor,
          invitedAt,
          invitationSentAt: sentAt ? new Date(sentAt) : null,
          createdAt: new Date(cloudGuest.createdAt),
          updatedAt: now,
        });
        await flushClaimingUpn(em, created.userPrincipalName);
        await this.emitInvited(em, tenant, created, { sent: sendInvitation, resent: false });
        return created;
      }),
    );
    return guestOf(guest);
  }

  /** Mails the invitation again while it is Pending (409 otherwise); emits `guest.invited` with resent: true. */
  async resend(tenantId: string, id: string): Promise<GuestUser> {
    const tenant = await this.tenant(tenantId);
    const guest = await this.guest(tenantId, id, INVITATION_SENT);
    if (guest.invitationStatus !== InvitationStatus.PENDING) throw notPending(guest, guest.invitationStatus);
    const upstream = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).directory.resendInvitation(guest.externalId);
    if (!upstream) {
      throw new ConflictError(`Guest ${id} is no longer in the upstream cloud; sync the tenant`, {
        from: INVITATION_SENT,
        to: INVITATION_SENT,
        upstream: 'missing',
      });
    }
    const upstreamStatus = upstream.guest?.invitationStatus ?? null;
    if (upstreamStatus !== InvitationStatus.PENDING) {
      // Redeemed upstream since our last sync: nothing was sent.
      throw notPending(guest, upstreamStatus);
    }
    const sentAt = new Date(upstream.guest?.invitationSentAt ?? this.ctx.clock.now().toISOString());
    const updated = await this.ctx.em.transactional(async (em) => {
      const current = await em.findOne(
        User,
        { id, tenantId, deletedAt: null },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!current) throw new NotFoundError('User', id);
      em.assign(current, { invitationSentAt: sentAt, updatedAt: this.ctx.clock.now() });
      await em.flush();
      await this.emitInvited(em, tenant, current, { sent: true, resent: true });
      return current;
    });
    return guestOf(updated);
  }

  /**
   * Removes a guest: the soft delete of users (SPEC 3.4), so it is listed in the deleted users and can be
   * restored for 30 days; `user.deleted` is emitted. A member is refused with 409.
   */
  async remove(tenantId: string, id: string): Promise<GuestUser> {
    await this.guest(tenantId, id, REMOVAL);
    return guestOf(await new UserService(this.ctx).delete(tenantId, id));
  }

  /** `guest.invited`, for an invitation and for each resend (then with `resentBy`). */
  private emitInvited(
    em: EntityManager,
    tenant: Tenant,
    guest: User,
    sending: { sent: boolean; resent: boolean },
  ): Promise<unknown> {
    return emitEvent(
      { ...this.ctx, em },
      {
        kind: 'guest.invited',
        severity: 'informational',
        tenant: tenant.eventRef,
        details: {
          userId: guest.id,
          email: guest.email,
          displayName: guest.displayName,
          userPrincipalName: guest.userPrincipalName,
          invitedBy: guest.invitedBy,
          ...(sending.resent ? { resentBy: this.ctx.actor } : {}),
          ...sending,
          invitationStatus: InvitationStatus.PENDING,
        },
        actionPath: userPath(guest),
      },
    );
  }

  /** A guest of the tenant that is not removed; 404 when absent (or another organization's), 409 for a member. */
  /** The guest a move acts on: a removed (soft-deleted) guest answers 409 naming the move, not 404. */
  private async guest(tenantId: string, id: string, to: string): Promise<User> {
    const user = await new UserService(this.ctx).getForChange(tenantId, id, to);
    if (user.userType !== UserType.GUEST) throw notAGuest(user);
    return user;
  }

  /**
   * 409 when the address is a guest's address or a user's sign-in name in the tenant (not removed). On the folded
   * columns with `=`, so that users_active_email_index and users_active_upn_unique serve it under the policies.
   */
  private async assertAddressFree(em: EntityManager, tenantId: string, email: string): Promise<void> {
    const [existing] = await em.execute<Array<{ id: string; user_type: string }>>(
      `select id, user_type from users
        where organization_id = ? and environment = ? and tenant_id = ? and deleted_at is null
          and (email_folded = ? or user_principal_name_folded = ?)
        limit 1`,
      [this.ctx.scope.organizationId, this.ctx.scope.environment, tenantId, email, email],
    );
    if (existing) throw addressTaken(email, { id: existing.id, userType: existing.user_type });
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}
