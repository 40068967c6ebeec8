import { GraphQLUUID } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { selectedItemFields } from '../core/lean-selection.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { User } from './user.entity.js';
import { CreateUserInput, UpdateUserInput } from './user.types.js';
import { userLicenses } from './user.loaders.js';
import { generatedPasswordOf, UserService } from './user.service.js';

const UserPage = PageOf(User, 'User');

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

@Resolver(() => User)
export class UserResolver {
  @Query(() => UserPage, { description: 'Users of a tenant that are not deleted, newest first' })
  @RequirePermission(FEATURES.identity.read)
  async users(
    @tenantIdArg() tenantId: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The page brings each user's SKU ids: `licenses` below answers from them, no second query. Only the columns
    // of the fields asked are read (REST's route document arrives here the same way).
    return new UserService(ctx).listWithLicenses(tenantId, page, selectedItemFields(info));
  }

  @Query(() => User, { description: 'A user of a tenant; a deleted user is not found' })
  @RequirePermission(FEATURES.identity.read)
  user(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new UserService(ctx).get(tenantId, id);
  }

  @Mutation(() => User, {
    description:
      'Creates a cloud user; without a password, a generated one is returned once in generatedPassword',
  })
  @RequirePermission(FEATURES.identity.write)
  createUser(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => CreateUserInput) input: CreateUserInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserService(ctx).create(tenantId, input);
  }

  @Mutation(() => User, { description: 'Changes the given fields of a user' })
  @RequirePermission(FEATURES.identity.write)
  updateUser(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('input', () => UpdateUserInput) input: UpdateUserInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserService(ctx).update(tenantId, id, input);
  }

  @Mutation(() => User, {
    description:
      'Soft-deletes a user (SPEC 3.4): sign-in blocked, sessions revoked, groups and licenses removed, manager cleared',
  })
  @RequirePermission(FEATURES.identity.admin)
  deleteUser(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new UserService(ctx).delete(tenantId, id);
  }

  @FieldResolver(() => [ID], { description: 'SKU ids of the licenses the user holds' })
  licenses(@Root() user: User, @Ctx() ctx: RequestContext): string[] | Promise<string[]> {
    return userLicenses(ctx, user);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Only in the createUser result, and only when the password was generated: shown this once, never stored',
  })
  generatedPassword(@Root() user: User): string | null {
    return generatedPasswordOf(user);
  }
}
