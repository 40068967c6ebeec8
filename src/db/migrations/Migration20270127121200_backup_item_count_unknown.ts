import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #30 item 6: a snapshot's item count is what the backup service says, and Microsoft 365 Backup's
 * restore points say none (docs/microsoft365.md "Backup"): null there rather than a made-up number.
 */
export class Migration20270127121200_backup_item_count_unknown extends Migration {
  override name = 'Migration20270127121200_backup_item_count_unknown';

  override up(): void | Promise<void> {
    this.addSql(`alter table "backup_snapshots" alter column "item_count" drop not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "backup_snapshots" set "item_count" = 0 where "item_count" is null;`);
    this.addSql(`alter table "backup_snapshots" alter column "item_count" set not null;`);
  }
}
