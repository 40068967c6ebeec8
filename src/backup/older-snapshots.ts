import { InvalidRequestError } from '../core/errors.js';
import { pageOffset, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { storeSnapshots } from './backup-catalog.js';
import { BackupSnapshot } from './backup-snapshot.entity.js';
import { BACKUP_RETENTION_MS } from './backup.settings.js';
import type { BackupSnapshotArgs } from './backup.types.js';

/** Cloud calls one listing page may make for older snapshots, whatever its limit. */
export const OLDER_SNAPSHOT_CALLS_PER_PAGE = 10;

/**
 * Snapshots older than what the hourly catalog holds, fetched when a listing's date range reaches them
 * (docs/microsoft365.md "Backup"): on a cloud whose list covers its recent days only (`olderSnapshots`:
 * Microsoft 365 Backup, 14 days), a listing of ONE resource (`resourceId`) with `from` before that asks the
 * cloud for the range's snapshots page by page, walking back from the oldest already held, a few per call,
 * until the requested page is full or the cloud has no more: at most ceil(limit / per call) + 1 calls per page
 * (never more than OLDER_SNAPSHOT_CALLS_PER_PAGE). What it gets joins the catalog, and the page is then read
 * from it like any other. Without `resourceId` such a range is refused (400 naming it) rather than listed
 * short: the cloud lists older snapshots per resource only.
 */
export async function fetchOlderSnapshots(
  ctx: ServiceContext,
  tenant: Pick<Tenant, 'id' | 'externalId'>,
  args: BackupSnapshotArgs & PageArgs,
): Promise<void> {
  if (!args.from) return;
  const older = (await ctx.cloud.forTenant(tenant.externalId)).backup.olderSnapshots;
  if (!older) return;
  const listedSince = older.listedSince();
  if (args.from >= listedSince) return;
  if (!args.resourceId)
    throw InvalidRequestError.field(
      'resourceId',
      `is required to list snapshots taken before ${listedSince.toISOString()} on this cloud: ` +
        'it lists older snapshots one protected resource at a time',
    );
  // The range the catalog does not cover, within the retention window ([start, end)).
  const start = new Date(Math.max(+args.from, +ctx.clock.now() - BACKUP_RETENTION_MS));
  const end = new Date(Math.min(+(args.to ?? listedSince) + 1, +listedSince));
  if (start >= end) return;
  const known = await ctx.em.findOne(
    BackupSnapshot,
    { tenantId: tenant.id, resourceId: args.resourceId },
    { orderBy: { takenAt: 'desc' }, fields: ['workload', 'resourceId', 'resourceName', 'userId'] },
  );
  if (!known) return; // a resource the catalog never listed: nothing to ask for
  const userExternalId = known.userId
    ? ((
        await ctx.em.execute<{ external_id: string }[]>('select external_id from users where id = ?', [
          known.userId,
        ])
      )[0]?.external_id ?? null)
    : null;
  const resource = {
    resourceExternalId: known.resourceId,
    workload: known.workload,
    resourceName: known.resourceName,
    userExternalId,
  };
  const wanted = pageOffset(args) + args.limit;
  const calls = Math.min(Math.ceil(args.limit / older.perCall) + 1, OLDER_SNAPSHOT_CALLS_PER_PAGE);
  // What the listing shows of the resource (the catalog's newer ones first), and the older part of it.
  const listed = {
    tenantId: tenant.id,
    resourceId: args.resourceId,
    expiresAt: { $gte: ctx.clock.now() },
    takenAt: args.to ? { $gte: args.from, $lte: args.to } : { $gte: args.from },
  };
  const inRange = { tenantId: tenant.id, resourceId: args.resourceId, takenAt: { $gte: start, $lt: end } };
  for (let call = 0; call < calls; call++) {
    if ((await ctx.em.count(BackupSnapshot, listed)) >= wanted) return;
    const oldest = await ctx.em.findOne(BackupSnapshot, inRange, {
      orderBy: { takenAt: 'asc' },
      fields: ['takenAt'],
    });
    const got = await older.listBefore(resource, start, oldest?.takenAt ?? end);
    await storeSnapshots(ctx, ctx.em, tenant, got);
    if (got.length < older.perCall) return; // the cloud has no more in the range
  }
}
