import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { RestrictedUser } from './restricted-user.entity.js';
import { RestrictedUserService } from './restricted-user.service.js';
import { RestrictedUserPage } from './restricted-user.types.js';
import { MAIL_SENDING_LIMITS, MailSendingLimits } from './sending-limits.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Exchange restricted users of SPEC 2.6, 3.3 (REST: /api/exchange/restricted-users...). */
@Resolver(() => RestrictedUser)
export class RestrictedUserResolver {
  @Query(() => RestrictedUserPage, {
    description: 'Mailboxes of a tenant currently blocked from sending (status Restricted), newest first',
  })
  @RequirePermission(FEATURES.exchange.read)
  restrictedUsers(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new RestrictedUserService(ctx).list(tenantId, page);
  }

  @Query(() => RestrictedUserPage, {
    description: 'Every restriction of a tenant, current and unblocked, newest first',
  })
  @RequirePermission(FEATURES.exchange.read)
  restrictedUserHistory(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new RestrictedUserService(ctx).history(tenantId, page);
  }

  @Query(() => RestrictedUser, { description: 'One restriction of a tenant' })
  @RequirePermission(FEATURES.exchange.read)
  restrictedUser(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new RestrictedUserService(ctx).get(tenantId, id);
  }

  @Mutation(() => RestrictedUser, {
    description: 'Lets a restricted mailbox send again (Restricted → Unblocked); 409 when already Unblocked',
  })
  @RequirePermission(FEATURES.exchange.write)
  unblockRestrictedUser(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new RestrictedUserService(ctx).unblock(tenantId, id);
  }

  @FieldResolver(() => MailSendingLimits, {
    description:
      'The sending limits behind a restriction (SPEC 8.3): what a "Sending limit exceeded" mailbox went past',
  })
  sendingLimits(): MailSendingLimits {
    return MAIL_SENDING_LIMITS;
  }
}
