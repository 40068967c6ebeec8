import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { DeletedUserService } from './deleted-user.service.js';
import { DeletedUser, DeletedUserPage, PurgedUser, RECOVERY_WINDOW_DAYS } from './deleted-user.types.js';
import { User } from './user.entity.js';
import { RestoreUserInput } from './user.types.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** The deleted-users lifecycle of SPEC 3.4 (REST: /api/identity/users/deleted, .../restore, .../permanent). */
@Resolver(() => DeletedUser)
export class DeletedUserResolver {
  @Query(() => DeletedUserPage, {
    description: 'Soft-deleted users of a tenant (recycle bin), newest deletion first',
  })
  @RequirePermission(FEATURES.identity.read)
  deletedUsers(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new DeletedUserService(ctx).list(tenantId, page);
  }

  @Mutation(() => User, {
    description: `Restores a soft-deleted user within ${RECOVERY_WINDOW_DAYS} days of its deletion: profile, object id, UPN (or the new one given) and account status; not groups, licenses or manager`,
  })
  @RequirePermission(FEATURES.identity.write)
  restoreUser(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => RestoreUserInput, { nullable: true }) input: RestoreUserInput | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new DeletedUserService(ctx).restore(tenantId, id, input ?? null);
  }

  @Mutation(() => PurgedUser, {
    description: 'Permanently deletes a soft-deleted user (irreversible; Admin API key)',
  })
  @RequirePermission(FEATURES.identity.admin)
  permanentlyDeleteUser(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new DeletedUserService(ctx).permanentlyDelete(tenantId, id);
  }
}
