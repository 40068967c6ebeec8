import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../core/request-context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { PageArgs } from '../core/pagination.js';
import { RECOVERY_WINDOW_DAYS } from '../users/deleted-user.types.js';
import { OneDriveService } from './onedrive.service.js';
import { DriveAccessGrant, DriveItemPage } from './onedrive.types.js';

@Resolver()
export class OneDriveResolver {
  @Query(() => DriveItemPage, {
    description: `A deleted user's preserved personal files, by path (within ${RECOVERY_WINDOW_DAYS} days of the deletion)`,
  })
  @RequirePermission(FEATURES.identity.read)
  deletedUserFiles(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new OneDriveService(ctx).files(tenantId, id, page);
  }

  @Mutation(() => DriveAccessGrant, {
    description: "Gives an active user access to a deleted user's personal files until they are purged",
  })
  @RequirePermission(FEATURES.identity.write)
  grantDeletedUserFileAccess(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Arg('userId', () => GraphQLUUID) userId: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new OneDriveService(ctx).grantAccess(tenantId, id, userId);
  }
}
