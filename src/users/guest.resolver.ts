import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { RECOVERY_WINDOW_DAYS } from './deleted-user.types.js';
import { GuestService } from './guest.service.js';
import {
  GuestUser,
  GuestUserPage,
  IdentityUserListType,
  InviteGuestInput,
  STALE_GUEST_DAYS,
  StaleGuestPage,
} from './guest.types.js';
import { InvitationStatus } from './user.enums.js';
import './user.graphql-enums.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/**
 * Guests of a tenant (SPEC 2.6, 3.3; REST: /api/identity/users?type=guest, .../invite, .../:id/resend-invite,
 * .../stale-guests, DELETE .../:id). read:users reads, write:users invites and resends, removal is a DELETE
 * (Admin API key, or write:users on an access token) like deleteUser.
 */
@Resolver(() => GuestUser)
export class GuestResolver {
  @Query(() => GuestUserPage, { description: 'Guest users of a tenant that are not removed, newest first' })
  @RequirePermission(FEATURES.identity.read)
  guestUsers(
    @tenantIdArg() tenantId: string,
    @Args() page: PageArgs,
    @Arg('type', () => IdentityUserListType, {
      defaultValue: IdentityUserListType.GUEST,
      description: 'Which users: only GUEST here (the REST route requires ?type=guest)',
    })
    _type: IdentityUserListType,
    @Arg('invitationStatus', () => InvitationStatus, { nullable: true })
    invitationStatus: InvitationStatus | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new GuestService(ctx).list(tenantId, page, { invitationStatus });
  }

  @Query(() => StaleGuestPage, {
    description: `Guests with no sign-in for ${STALE_GUEST_DAYS} days or more (never signed in: ${STALE_GUEST_DAYS} days since accepting, or since the pending invitation was sent), longest inactive first, each with its reason; without sign-in data (signInDataAvailable false) only pending invitations`,
  })
  @RequirePermission(FEATURES.identity.read)
  staleGuests(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new GuestService(ctx).stale(tenantId, page);
  }

  @Mutation(() => GuestUser, {
    description:
      'Invites a guest (Pending); sendInvitation false creates it without mail. 409 when the address is already in the tenant',
  })
  @RequirePermission(FEATURES.identity.write)
  inviteGuest(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => InviteGuestInput) input: InviteGuestInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new GuestService(ctx).invite(tenantId, input);
  }

  @Mutation(() => GuestUser, {
    description: 'Mails the invitation of a guest again; only while it is Pending (409 otherwise)',
  })
  @RequirePermission(FEATURES.identity.write)
  resendGuestInvitation(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new GuestService(ctx).resend(tenantId, id);
  }

  @Mutation(() => GuestUser, {
    description: `Removes a guest: a soft delete (restorable from the deleted users for ${RECOVERY_WINDOW_DAYS} days; Admin API key). 409 for a member`,
  })
  @RequirePermission(FEATURES.identity.admin)
  removeGuest(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new GuestService(ctx).remove(tenantId, id);
  }
}
