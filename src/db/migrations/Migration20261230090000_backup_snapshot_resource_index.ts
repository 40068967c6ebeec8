import { Migration } from '@mikro-orm/migrations';

/**
 * Snapshots by resource, newest first: the snapshot list filtered by `resourceId` read the tenant's whole
 * taken_at order to find one resource's few snapshots, and the portal's backup-age recount (the newest snapshot
 * of each resource) read every snapshot row of the tenant from the heap; both now read this index.
 */
export class Migration20261230090000_backup_snapshot_resource_index extends Migration {
  override name = 'Migration20261230090000_backup_snapshot_resource_index';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "backup_snapshots_resource_index" on "backup_snapshots" ("organization_id", "environment", "tenant_id", "resource_id", "taken_at", "id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "backup_snapshots_resource_index";`);
  }
}
