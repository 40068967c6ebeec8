import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11, row-level security: the UPN uniqueness check (UserService.assertUpnFree, the bulk import's check and
 * its task's replay lookup) compared `lower(user_principal_name) = ?`. Under the organization policy `lower()` is
 * not leakproof, so that comparison could not be an index condition and every check read all of the
 * organization's users. A stored generated column holds the folded UPN; comparing it with a plain `=` (leakproof
 * on text) lets the unique index serve the check. The unique index moves onto the column under its old name (the
 * service maps a violation of users_active_upn_unique to 409), so the expression index it replaces is gone.
 * Adding a stored column rewrites the table once (at 1,000,000 users, some seconds at start-up).
 */
export class Migration20261225090000_upn_folded extends Migration {
  override name = 'Migration20261225090000_upn_folded';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add column "user_principal_name_folded" text generated always as (lower(user_principal_name)) stored;`,
    );
    this.addSql(`drop index "users_active_upn_unique";`);
    this.addSql(
      `create unique index "users_active_upn_unique" on "users" ("organization_id", "environment", "user_principal_name_folded") where "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_active_upn_unique";`);
    this.addSql(`alter table "users" drop column "user_principal_name_folded";`);
    this.addSql(
      `create unique index "users_active_upn_unique" on "users" ("organization_id", "environment", lower("user_principal_name")) where "deleted_at" is null;`,
    );
  }
}
