import { AppError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { BackupSnapshot } from './backup-snapshot.entity.js';
import { fetchOlderSnapshots } from './older-snapshots.js';
import { BackupItemKind } from './backup.enums.js';
import type { BackupItem, BackupSnapshotArgs } from './backup.types.js';

/** 404 naming the field that pointed at it, so a client knows which id was wrong. */
export function snapshotNotFound(id: string, field = 'snapshotId'): AppError {
  return new AppError('NOT_FOUND', `Backup snapshot ${id} was not found`, {
    resource: 'Backup snapshot',
    id,
    fields: [{ field, problem: 'no backup snapshot with this id in this tenant' }],
  });
}

/**
 * Backup snapshots (SPEC 2.6 "Backup snapshot", 4.2 GET /api/backup/snapshots): the catalog copied from the
 * cloud by the backup catalog job, limited to the retention window, and (extension) a snapshot's item tree,
 * read from the cloud's backup service one container at a time.
 */
export class BackupService {
  constructor(private readonly ctx: ServiceContext) {}

  async listSnapshots(tenantId: string, args: BackupSnapshotArgs): Promise<Page<BackupSnapshot>> {
    if (args.from && args.to && args.from > args.to)
      throw InvalidRequestError.field('to', 'must not be before from');
    const tenant = await new TenantService(this.ctx).get(tenantId);
    // A range older than the catalog's days is asked of the cloud first (a cloud listing recent days only).
    await fetchOlderSnapshots(this.ctx, tenant, args);
    return findLeanPage(
      this.ctx,
      BackupSnapshot,
      {
        tenantId,
        workload: args.workload,
        userId: args.userId,
        resourceId: args.resourceId,
        // Past the retention window a snapshot is gone even if the hourly catalog job has not run yet.
        expiresAt: { gte: this.ctx.clock.now() },
        takenAt: args.from || args.to ? { gte: args.from, lte: args.to } : undefined,
      },
      args,
      { takenAt: 'desc', id: 'desc' },
    );
  }

  /** A snapshot of the tenant within the retention window; 404 otherwise. */
  async getSnapshot(tenantId: string, snapshotId: string, field = 'snapshotId'): Promise<BackupSnapshot> {
    const snapshot = await this.ctx.em.findOne(BackupSnapshot, { id: snapshotId, tenantId });
    if (!snapshot) throw snapshotNotFound(snapshotId, field);
    return snapshot;
  }

  /** The children of a container of the snapshot (the top-level containers without parentId). */
  async browse(
    tenantId: string,
    snapshotId: string,
    parentId: string | null,
    page: PageArgs,
  ): Promise<Page<BackupItem>> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const snapshot = await this.getSnapshot(tenantId, snapshotId, 'id');
    if (snapshot.expiresAt <= this.ctx.clock.now()) throw snapshotNotFound(snapshotId, 'id');
    const result = await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).backup.listBackupItems(snapshot.externalId, parentId, pageOffset(page), page.limit);
    if (!result) throw snapshotNotFound(snapshotId, 'id');
    if (parentId !== null && result.total === 0) {
      const found = await (
        await this.ctx.cloud.forTenant(tenant.externalId)
      ).backup.findBackupItems(snapshot.externalId, [parentId]);
      if (found.items[0]?.kind !== 'Container') throw new NotFoundError('Backup item', parentId);
    }
    return {
      items: result.items.map((item) => ({
        ...item,
        kind: item.kind === 'Container' ? BackupItemKind.CONTAINER : BackupItemKind.ITEM,
        modifiedAt: new Date(item.modifiedAt),
      })),
      pageInfo: { page: page.page, limit: page.limit, total: result.total },
    };
  }
}
