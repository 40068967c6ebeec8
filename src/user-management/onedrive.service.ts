import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { RECOVERY_WINDOW_MS } from '../users/deleted-user.service.js';
import { User } from '../users/user.entity.js';
import type { DriveAccessGrant, DriveItem } from './onedrive.types.js';

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
    const { items, total } = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).userManagement.listDriveItems(user.externalId, { offset: pageOffset(page), limit: page.limit });
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
    const grant = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).userManagement.grantDriveAccess(user.externalId, grantee.externalId);
    return { userId: user.id, grantedTo: grantee.id, grantedAt: new Date(grant.grantedAt), availableUntil };
  }
}
