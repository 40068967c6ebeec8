import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { PageArgs, pageOffset, PageOf, type Page } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { RECOVERY_WINDOW_MS } from '../users/deleted-user.service.js';
import { RECOVERY_WINDOW_DAYS } from '../users/deleted-user.types.js';
import { User } from '../users/user.entity.js';

@ObjectType({ description: 'A file preserved in a deleted user’s personal storage' })
export class DriveItem {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  path!: string;

  @Field(() => Int)
  sizeBytes!: number;

  @Field(() => GraphQLDateTime)
  modifiedAt!: Date;
}
const DriveItemPage = PageOf(DriveItem, 'DriveItem');

@ObjectType({ description: 'Access given to a user on a deleted user’s personal storage' })
export class DriveAccessGrant {
  @Field(() => ID)
  userId!: string;

  @Field(() => ID)
  grantedTo!: string;

  @Field(() => GraphQLDateTime)
  grantedAt!: Date;

  @Field(() => GraphQLDateTime, {
    description: 'The storage is purged with the user at the end of the window',
  })
  availableUntil!: Date;
}

/**
 * A deleted user's personal file storage (SPEC 4.2 GET /api/identity/users/:id/onedrive, 3.4): readable
 * from the cloud while the user is in the 30-day window; after it (or once purged) 404; an active user 409.
 */
export class OneDriveService {
  constructor(private readonly ctx: ServiceContext) {}

  private async deletedUser(tenantId: string, id: string): Promise<{ user: User; availableUntil: Date }> {
    await new TenantService(this.ctx).get(tenantId);
    const user = await this.ctx.em.findOne(User, { id, tenantId });
    if (!user) throw new NotFoundError('User', id);
    if (!user.deletedAt) {
      throw new ConflictError(
        `User ${id} is active: its files are in its own storage (this reads a deleted user's preserved files)`,
        { state: 'active' },
      );
    }
    const availableUntil = new Date(user.deletedAt.getTime() + RECOVERY_WINDOW_MS);
    // Past the window the storage is gone, whether or not the hourly purge has removed the row yet.
    if (this.ctx.clock.now() >= availableUntil) throw new NotFoundError('User', id);
    return { user, availableUntil };
  }

  async files(tenantId: string, id: string, page: PageArgs): Promise<Page<DriveItem>> {
    const { user } = await this.deletedUser(tenantId, id);
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const { items, total } = await this.ctx.provider.userManagement.listDriveItems(
      tenant.externalId,
      user.externalId,
      { offset: pageOffset(page), limit: page.limit },
    );
    return {
      items: items.map((item) => ({
        id: item.externalId,
        name: item.name,
        path: item.path,
        sizeBytes: item.sizeBytes,
        modifiedAt: new Date(item.modifiedAt),
      })),
      pageInfo: { page: page.page, limit: page.limit, total },
    };
  }

  async grantAccess(tenantId: string, id: string, granteeId: string): Promise<DriveAccessGrant> {
    const { user, availableUntil } = await this.deletedUser(tenantId, id);
    const grantee = await this.ctx.em.findOne(User, { id: granteeId, tenantId, deletedAt: null });
    if (!grantee) throw InvalidRequestError.field('userId', 'must be an active user of the tenant');
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const grant = await this.ctx.provider.userManagement.grantDriveAccess(
      tenant.externalId,
      user.externalId,
      grantee.externalId,
    );
    return { userId: user.id, grantedTo: grantee.id, grantedAt: new Date(grant.grantedAt), availableUntil };
  }
}

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
