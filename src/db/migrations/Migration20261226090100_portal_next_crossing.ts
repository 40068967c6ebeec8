import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11 item 3: each tenant's aggregates say when its first active licensed user crosses the 30-day line,
 * so the five-minute job recounts only the tenants whose crossing has come (and the marked ones) instead of
 * every tenant (docs/portal.md "Aggregates and freshness"). Null means no licensed user is active.
 */
export class Migration20261226090100_portal_next_crossing extends Migration {
  override name = 'Migration20261226090100_portal_next_crossing';

  override up(): void | Promise<void> {
    this.addSql(`alter table "portal_tenant_aggregates" add column "next_crossing_at" timestamptz null;`);
    // Rows counted before this column existed know no crossing: due at once, so the next job recounts them.
    this.addSql(`update "portal_tenant_aggregates" set "next_crossing_at" = '-infinity';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "portal_tenant_aggregates" drop column "next_crossing_at";`);
  }
}
