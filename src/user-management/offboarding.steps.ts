import type { UserManagementOperation } from '../cloud/user-management.provider.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import { LicenseAssignment } from '../licenses/license.entity.js';
import { LicenseService } from '../licenses/license.service.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { Group, GroupMembership } from '../users/group.entity.js';
import { User } from '../users/user.entity.js';
import { AccountStatus } from '../users/user.enums.js';
import { userPath } from '../users/user.rules.js';
import { UserService } from '../users/user.service.js';
import { OffboardingStepName, type OffboardingOptions, type UserOffboarding } from './offboarding.entity.js';

/** The steps in the order they run (issue #14 item 5). Licenses go only after the mailbox is shared. */
export const STEP_ORDER: OffboardingStepName[] = [
  OffboardingStepName.BLOCK_SIGN_IN,
  OffboardingStepName.REVOKE_SESSIONS,
  OffboardingStepName.CONVERT_MAILBOX,
  OffboardingStepName.SET_AUTO_REPLY,
  OffboardingStepName.TRANSFER_FILES,
  OffboardingStepName.REMOVE_GROUPS,
  OffboardingStepName.REMOVE_LICENSES,
  OffboardingStepName.DELETE_USER,
];

/** Whether the options ask for a step (the others are recorded as Skipped). */
export function stepWanted(name: OffboardingStepName, options: OffboardingOptions): boolean {
  switch (name) {
    case OffboardingStepName.BLOCK_SIGN_IN:
    case OffboardingStepName.REVOKE_SESSIONS:
      return true;
    case OffboardingStepName.CONVERT_MAILBOX:
      return options.convertMailboxToShared;
    case OffboardingStepName.SET_AUTO_REPLY:
      return options.autoReplyMessage !== null;
    case OffboardingStepName.TRANSFER_FILES:
      return options.transferFilesTo !== null;
    case OffboardingStepName.REMOVE_GROUPS:
      return options.removeFromGroups;
    case OffboardingStepName.REMOVE_LICENSES:
      return options.removeLicenses;
    case OffboardingStepName.DELETE_USER:
      return options.deleteUser;
  }
}

/**
 * The cloud's user-management operations the wanted steps will call: the offboarding checks the cloud has
 * them all before it starts (UserManagementCloud.assertSupports), so none stops half-way at a step the cloud
 * cannot do (docs/decisions.md, "Live offboarding and the mailbox").
 */
export function cloudOperationsOf(options: OffboardingOptions): UserManagementOperation[] {
  const operations: UserManagementOperation[] = [];
  if (options.convertMailboxToShared) operations.push('convertMailboxToShared');
  if (options.delegateMailboxToUserId) operations.push('addMailboxDelegate');
  if (options.autoReplyMessage !== null) operations.push('setAutoReply');
  if (options.transferFilesTo !== null) operations.push('transferFiles');
  if (options.removeFromGroups) operations.push('removeGroupMember');
  return operations;
}

export interface StepSubjects {
  ctx: ServiceContext;
  tenant: Tenant;
  user: User;
  offboarding: UserOffboarding;
}

/**
 * Each step calls the cloud first and then records the change in our rows with its event, and is
 * idempotent: a step run again after a crash or a retry converges instead of doing the work twice.
 * Returns what was done, for the step's record.
 */
export const STEPS: Record<OffboardingStepName, (subjects: StepSubjects) => Promise<string>> = {
  async blockSignIn({ ctx, tenant, user, offboarding }) {
    await (
      await ctx.cloud.forTenant(tenant.externalId)
    ).directory.updateUser(user.externalId, { accountEnabled: false });
    if (user.accountStatus === AccountStatus.DISABLED) return 'sign-in was already blocked';
    await ctx.em.transactional(async (em) => {
      await em.nativeUpdate(
        User,
        { id: user.id },
        { accountStatus: AccountStatus.DISABLED, updatedAt: ctx.clock.now() },
      );
      await userUpdated({ ...ctx, em }, tenant, user, ['accountStatus'], offboarding.id);
    });
    return 'sign-in blocked';
  },

  async revokeSessions({ ctx, tenant, user }) {
    await (await ctx.cloud.forTenant(tenant.externalId)).directory.revokeSessions(user.externalId);
    await ctx.em.nativeUpdate(User, { id: user.id }, { sessionsRevokedAt: ctx.clock.now() });
    return 'sessions and refresh tokens revoked';
  },

  async convertMailbox({ ctx, tenant, user, offboarding }) {
    const cloud = (await ctx.cloud.forTenant(tenant.externalId)).userManagement;
    await cloud.convertMailboxToShared(user.externalId);
    const delegateId = offboarding.options.delegateMailboxToUserId;
    if (!delegateId) return 'mailbox converted to shared';
    const delegate = await ctx.em.findOneOrFail(User, { id: delegateId });
    await cloud.addMailboxDelegate(user.externalId, delegate.externalId);
    return `mailbox converted to shared; full access for ${delegate.userPrincipalName}`;
  },

  async setAutoReply({ ctx, tenant, user, offboarding }) {
    await (
      await ctx.cloud.forTenant(tenant.externalId)
    ).userManagement.setAutoReply(user.externalId, offboarding.options.autoReplyMessage);
    return 'automatic reply set';
  },

  async transferFiles({ ctx, tenant, user, offboarding }) {
    const target = await ctx.em.findOneOrFail(User, { id: offboarding.options.transferFilesTo! });
    const moved = await (
      await ctx.cloud.forTenant(tenant.externalId)
    ).userManagement.transferFiles(user.externalId, target.externalId);
    return `${moved} file(s) moved to ${target.userPrincipalName}`;
  },

  async removeGroups({ ctx, tenant, user, offboarding }) {
    const memberships = await ctx.em.find(GroupMembership, { userId: user.id });
    const groups = await ctx.em.find(Group, { id: { $in: memberships.map((m) => m.groupId) } });
    // The cloud first (removal is idempotent), then our memberships and the event in one transaction: a run
    // killed in between finds every membership still here, removes them at the cloud again (no-ops) and
    // records the state and its "groups" user.updated event together (issue #34 item 1: the event was lost
    // when the memberships had been deleted before its own transaction).
    const cloud = groups.length > 0 ? await ctx.cloud.forTenant(tenant.externalId) : null;
    for (const group of groups) {
      await cloud!.userManagement.removeGroupMember(group.externalId, user.externalId);
    }
    if (groups.length > 0) {
      await ctx.em.transactional(async (em) => {
        await em.nativeDelete(GroupMembership, {
          userId: user.id,
          groupId: { $in: groups.map((g) => g.id) },
        });
        await userUpdated({ ...ctx, em }, tenant, user, ['groups'], offboarding.id, {
          groupsLeft: groups.map((g) => g.displayName),
        });
      });
    }
    return `removed from ${groups.length} group(s)`;
  },

  async removeLicenses({ ctx, user }) {
    const held = await ctx.em.find(LicenseAssignment, { userId: user.id }, { orderBy: { skuId: 'asc' } });
    // LicenseService.remove calls the cloud, returns the seat and emits license.removed, once per license.
    for (const assignment of held) {
      await new LicenseService(ctx).remove(user.tenantId, { userId: user.id, skuId: assignment.skuId });
    }
    return `${held.length} license(s) removed`;
  },

  async deleteUser({ ctx, user }) {
    const current = await ctx.em.findOneOrFail(User, { id: user.id }, { refresh: true });
    if (current.deletedAt) return 'the user was already deleted';
    await new UserService(ctx).delete(user.tenantId, user.id); // soft delete, user.deleted
    return 'user deleted (restorable for 30 days)';
  },
};

function userUpdated(
  ctx: ServiceContext,
  tenant: Tenant,
  user: User,
  changedFields: string[],
  offboardingId: string,
  extra: Record<string, unknown> = {},
) {
  return emitEvent(ctx, {
    kind: 'user.updated',
    severity: 'informational',
    tenant: tenant.eventRef,
    details: {
      userId: user.id,
      userPrincipalName: user.userPrincipalName,
      changedFields,
      offboardingId,
      ...extra,
    },
    actionPath: userPath(user),
  });
}
