import { Migration } from '@mikro-orm/migrations';

/** Tables whose changes move a tenant's health signals (device compliance through its stored counts). */
const MARKED_TABLES = ['security_alerts', 'device_dashboard_counts', 'backup_snapshots'];

/**
 * Tenant health from every signal DECISIONS names (docs/tenant-health.md): the portal's stored per-tenant
 * aggregates also carry the open High alerts, the devices and the Non-Compliant ones, and the oldest of the
 * protected resources' newest backups, so `tenants/stats` stays a read of stored rows. Changes mark their tenant
 * dirty through the same statement-level triggers as users and licenses (Migration20261216090000_portal_scale's
 * functions). Devices mark through `device_dashboard_counts`, whose rows change only when a device's compliance
 * (or platform, ownership) does: a sync rewriting last-seen times marks nothing.
 */
export class Migration20261229090000_portal_health_signals extends Migration {
  override name = 'Migration20261229090000_portal_health_signals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "portal_tenant_aggregates"
      add column "open_high_alerts" int not null default 0,
      add column "devices" int not null default 0,
      add column "non_compliant_devices" int not null default 0,
      add column "oldest_latest_backup_at" timestamptz null;`);
    for (const table of MARKED_TABLES) {
      this.addSql(`create trigger "${table}_portal_dirty_insert" after insert on "${table}"
        referencing new table as new_rows for each statement execute function portal_mark_dirty_new();`);
      this.addSql(`create trigger "${table}_portal_dirty_update" after update on "${table}"
        referencing old table as old_rows new table as new_rows for each statement execute function portal_mark_dirty_both();`);
      this.addSql(`create trigger "${table}_portal_dirty_delete" after delete on "${table}"
        referencing old table as old_rows for each statement execute function portal_mark_dirty_old();`);
    }
    // Rows counted before these columns existed know none of the signals: due at once, so the next job recounts.
    this.addSql(`update "portal_tenant_aggregates" set "next_crossing_at" = '-infinity';`);
  }

  override down(): void | Promise<void> {
    for (const table of MARKED_TABLES) {
      for (const event of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger if exists "${table}_portal_dirty_${event}" on "${table}";`);
    }
    this.addSql(`alter table "portal_tenant_aggregates"
      drop column "open_high_alerts", drop column "devices", drop column "non_compliant_devices",
      drop column "oldest_latest_backup_at";`);
  }
}
