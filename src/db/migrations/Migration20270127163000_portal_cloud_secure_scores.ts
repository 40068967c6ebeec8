import { Migration } from '@mikro-orm/migrations';

const EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * Tenant health reads a Microsoft 365 tenant's secure score from Microsoft's Secure Score (`cloud_secure_scores`,
 * issue #30), so a change of that row marks its tenant dirty like every other health signal, through the
 * statement-level triggers of Migration20261216090000_portal_scale. Tenants that already hold a Microsoft score
 * were counted from their recommendations: due at once, so the next job recounts them.
 */
export class Migration20270127163000_portal_cloud_secure_scores extends Migration {
  override name = 'Migration20270127163000_portal_cloud_secure_scores';

  override up(): void | Promise<void> {
    this
      .addSql(`create trigger "cloud_secure_scores_portal_dirty_insert" after insert on "cloud_secure_scores"
      referencing new table as new_rows for each statement execute function portal_mark_dirty_new();`);
    this
      .addSql(`create trigger "cloud_secure_scores_portal_dirty_update" after update on "cloud_secure_scores"
      referencing old table as old_rows new table as new_rows for each statement execute function portal_mark_dirty_both();`);
    this
      .addSql(`create trigger "cloud_secure_scores_portal_dirty_delete" after delete on "cloud_secure_scores"
      referencing old table as old_rows for each statement execute function portal_mark_dirty_old();`);
    this.addSql(`update "portal_tenant_aggregates" a set "next_crossing_at" = '-infinity'
      where exists (select 1 from "cloud_secure_scores" c where c."tenant_id" = a."tenant_id");`);
  }

  override down(): void | Promise<void> {
    for (const event of EVENTS)
      this.addSql(
        `drop trigger if exists "cloud_secure_scores_portal_dirty_${event}" on "cloud_secure_scores";`,
      );
  }
}
