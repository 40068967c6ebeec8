import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #31 goal 5: the portal's every-tenant recount (src/portal/portal-aggregates.ts) joined a batch's
 * assignments to their users by user id through a hash table of every user of the batch (1,000,000 rows at the
 * bench's 1,000 tenants: building it was most of the 4.7–8 s). Both covering indexes now lead with the tenant, then
 * the user (`users (tenant_id, id)`, `license_assignments (tenant_id, user_id)`), and the recount joins on both
 * columns, so PostgreSQL merges the two index-only scans in order instead (docs/benchmarks.md). Same names, same
 * included columns: the five-minute job's few tenants still read them from the indexes alone.
 */
export class Migration20270127090000_portal_recount_merge_indexes extends Migration {
  override name = 'Migration20270127090000_portal_recount_merge_indexes';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "license_assignments_recount_index";`);
    this.addSql(
      `create index "license_assignments_recount_index" on "license_assignments" ("tenant_id", "user_id") include ("sku_id");`,
    );
    this.addSql(`drop index if exists "users_recount_index";`);
    this.addSql(
      `create index "users_recount_index" on "users" ("tenant_id", "id") include ("account_status", "last_sign_in_at", "created_at") where "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "license_assignments_recount_index";`);
    this.addSql(
      `create index "license_assignments_recount_index" on "license_assignments" ("tenant_id") include ("user_id", "sku_id");`,
    );
    this.addSql(`drop index if exists "users_recount_index";`);
    this.addSql(
      `create index "users_recount_index" on "users" ("id") include ("account_status", "last_sign_in_at", "created_at") where "deleted_at" is null;`,
    );
  }
}
