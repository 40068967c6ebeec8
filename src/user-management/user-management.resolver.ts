import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { USER_MAX_GROUPS_LISTED, USER_MAX_LICENSES_LISTED } from '../http/list-bounds.js';
import { FEATURES } from '../core/permissions.js';
import { User } from '../users/user.entity.js';
import { userGroupsLoader, userLicenseDetailsLoader } from './user-management.loaders.js';
import { UserManagementService } from './user-management.service.js';
import {
  ManagedUserPage,
  PasswordReset,
  ReplaceUserInput,
  ResetPasswordInput,
  UserGroupMembership,
  UserLicenseDetail,
} from './user-management.types.js';
import { UserSearchArgs } from './user-search.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/**
 * The user-management workspace (REST: /api/user-management-identity/users). Create and details use the
 * users API's own fields (createUser, user); these add the search, PUT and the password reset, and the
 * license and group details of a user.
 */
@Resolver(() => User)
export class UserManagementResolver {
  @Query(() => ManagedUserPage, {
    description: 'Users of a tenant (not deleted) by filters and search; display name A to Z unless sorted',
  })
  @RequirePermission(FEATURES.identity.read)
  searchUsers(
    @tenantIdArg() tenantId: string,
    @Args() filters: UserSearchArgs,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserManagementService(ctx).search(tenantId, filters, page);
  }

  @Mutation(() => User, { description: 'Replaces the editable profile of a user (PUT semantics)' })
  @RequirePermission(FEATURES.identity.write)
  replaceUser(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => ReplaceUserInput) input: ReplaceUserInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserManagementService(ctx).replace(tenantId, id, input);
  }

  @Mutation(() => PasswordReset, {
    description:
      'Sets a new password (generated when not given, returned once) and revokes sessions; 409 for deleted or synced users',
  })
  @RequirePermission(FEATURES.identity.write)
  resetUserPassword(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => ResetPasswordInput, { nullable: true }) input: ResetPasswordInput | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserManagementService(ctx).resetPassword(tenantId, id, input ?? {});
  }

  @FieldResolver(() => [UserLicenseDetail], {
    description: `The licenses the user holds, with SKU names: the first ${USER_MAX_LICENSES_LISTED} by assignment (licenseCount: all)`,
  })
  async licenseDetails(@Root() user: User, @Ctx() ctx: RequestContext): Promise<UserLicenseDetail[]> {
    return (await ctx.loaders.get(userLicenseDetailsLoader).load(user.id)).items;
  }

  @FieldResolver(() => Int, { description: 'Licenses the user holds in all' })
  async licenseCount(@Root() user: User, @Ctx() ctx: RequestContext): Promise<number> {
    return (await ctx.loaders.get(userLicenseDetailsLoader).load(user.id)).total;
  }

  @FieldResolver(() => [UserGroupMembership], {
    description: `Groups the user is a member of, by name: the first ${USER_MAX_GROUPS_LISTED} (groupCount: all)`,
  })
  async groups(@Root() user: User, @Ctx() ctx: RequestContext): Promise<UserGroupMembership[]> {
    return (await ctx.loaders.get(userGroupsLoader).load(user.id)).items;
  }

  @FieldResolver(() => Int, { description: 'Groups the user is a member of in all' })
  async groupCount(@Root() user: User, @Ctx() ctx: RequestContext): Promise<number> {
    return (await ctx.loaders.get(userGroupsLoader).load(user.id)).total;
  }
}
