import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { UserDirectoryService } from './user-directory.service.js';
import { DirectoryUserPage, UserDirectorySearchArgs } from './user-directory.types.js';

/**
 * Cross-tenant user search (REST: GET /api/msp-portal/users/search). It reads people's names and addresses, so
 * it needs read:users (identity), not the portal's aggregate-only msp:read.
 */
@Resolver()
export class UserDirectoryResolver {
  @Query(() => DirectoryUserPage, {
    description:
      'Users of every tenant of the organization (or a tenant group) whose name, UPN or mail contains q; A to Z, keyset-paged',
  })
  @RequirePermission(FEATURES.identity.read)
  searchUsersAcrossTenants(@Args() args: UserDirectorySearchArgs, @Ctx() ctx: RequestContext) {
    return new UserDirectoryService(ctx).search(args);
  }
}
