import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { CloudBackupSnapshotRecord } from '../cloud/backup.provider.js';
import type { CronItem, Task } from 'graphile-worker';
import { forEveryTenant } from '../tenants/every-tenant.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { BACKUP_RETENTION_MS } from './backup.settings.js';
import { allPages } from '../cloud/pages.js';
import { unsupportedCloudError } from '../cloud/cloud-error.js';

export const BACKUP_CATALOG_TASK = 'backup.catalog';

/**
 * Hourly on one process of the fleet: the cloud takes a snapshot of every protected resource every 4 hours,
 * so an hourly copy shows each within the hour, and drops those that left the retention window.
 */
export const BACKUP_CATALOG_CRON: CronItem = {
  task: BACKUP_CATALOG_TASK,
  match: '7 * * * *',
  identifier: BACKUP_CATALOG_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

/** Snapshots into backup_snapshots (storeSnapshots). */
const UPSERT_SQL = `
  insert into backup_snapshots (id, organization_id, environment, tenant_id, external_id, workload, resource_id,
    resource_name, user_id, taken_at, expires_at, item_count, created_at)
  select gen_random_uuid(), ?, ?, ?, s.external_id, s.workload, s.resource_id, s.resource_name, u.id,
    s.taken_at, s.taken_at + (? || ' milliseconds')::interval, s.item_count, ?
  from jsonb_to_recordset(?::jsonb) as s(external_id text, workload text, resource_id text, resource_name text,
    user_external_id text, taken_at timestamptz, item_count int)
  left join users u on u.organization_id = ? and u.environment = ? and u.tenant_id = ?
    and u.external_id = s.user_external_id
  on conflict (organization_id, environment, tenant_id, external_id) do update set user_id = excluded.user_id
  where backup_snapshots.user_id is distinct from excluded.user_id`;

/**
 * Stores snapshots the cloud listed (new ones inserted, each linked to our user with the same upstream id):
 * the hourly catalog's, and older ones a listing asked for (backup.service.ts). One statement.
 */
export async function storeSnapshots(
  ctx: ServiceContext,
  em: EntityManager,
  tenant: Pick<Tenant, 'id'>,
  records: readonly CloudBackupSnapshotRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const { scope } = ctx;
  const rows = records.map((record) => ({
    external_id: record.externalId,
    workload: record.workload,
    resource_id: record.resourceExternalId,
    resource_name: record.resourceName,
    user_external_id: record.userExternalId,
    taken_at: record.takenAt,
    item_count: record.itemCount,
  }));
  await em.execute(
    UPSERT_SQL,
    [
      scope.organizationId,
      scope.environment,
      tenant.id,
      String(BACKUP_RETENTION_MS),
      ctx.clock.now(),
      JSON.stringify(rows),
      scope.organizationId,
      scope.environment,
      tenant.id,
    ],
    'run',
  );
}

/**
 * Copies one tenant's snapshots from the cloud, then removes those the cloud no longer lists. Where the
 * cloud's list covers its recent days only (`olderSnapshots`), older snapshots a listing asked for are kept
 * until they expire: the list says nothing of them.
 */
export async function refreshTenantSnapshots(ctx: ServiceContext, tenant: Tenant): Promise<number> {
  const backup = (await ctx.cloud.forTenant(tenant.externalId)).backup;
  const records = await allPages(backup.listBackupSnapshots());
  const listedSince = backup.olderSnapshots?.listedSince() ?? null;
  const { scope } = ctx;
  await ctx.em.transactional(async (em) => {
    await storeSnapshots(ctx, em, tenant, records);
    await em.execute(
      `delete from backup_snapshots where organization_id = ? and environment = ? and tenant_id = ?
         and case when ?::timestamptz is null or taken_at >= ?::timestamptz
               then external_id not in (select jsonb_array_elements_text(?::jsonb))
               else expires_at < ? end`,
      [
        scope.organizationId,
        scope.environment,
        tenant.id,
        listedSince,
        listedSince,
        JSON.stringify(records.map((record) => record.externalId)),
        ctx.clock.now(),
      ],
      'run',
    );
  });
  return records.length;
}

/**
 * Every tenant's catalog (forEveryTenant: a tenant that withdrew its grant keeps the catalog it had). A tenant
 * whose cloud has no backup service (a Microsoft 365 tenant without Microsoft 365 Backup: CloudError
 * Unsupported) has nothing to copy and does not stop the others.
 */
export async function refreshAllSnapshotCatalogs(orm: MikroORM, deps: AppDeps): Promise<number> {
  let snapshots = 0;
  await forEveryTenant(orm, deps, BACKUP_CATALOG_ACTOR, async (ctx, tenant) => {
    snapshots += await catalogTenant(ctx, tenant);
  });
  return snapshots;
}

/** The catalog job's actor (forEveryTenant's job contexts). */
export const BACKUP_CATALOG_ACTOR = 'system:backup';

/**
 * The catalog job's run for one tenant: its snapshots copied (refreshTenantSnapshots), or none when its cloud has
 * no backup service (CloudError Unsupported). Returns the snapshots listed.
 */
export async function catalogTenant(ctx: ServiceContext, tenant: Tenant): Promise<number> {
  try {
    return await refreshTenantSnapshots(ctx, tenant);
  } catch (error) {
    if (!unsupportedCloudError(error)) throw error;
    return 0;
  }
}

export function backupCatalogTask(orm: MikroORM, deps: AppDeps): Task {
  return async () => {
    await refreshAllSnapshotCatalogs(orm, deps);
  };
}
