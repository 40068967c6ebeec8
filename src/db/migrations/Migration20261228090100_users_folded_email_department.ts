import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11, row-level security leftovers: the guest invitation's address check (`lower(email) = ? or
 * lower(user_principal_name) = ?`) and the managed-user list's `department` filter (`lower(department) = ?`) could
 * not be index conditions under the organization policy (`lower()` is not leakproof), so each read every user of
 * the tenant: measured at 20,000 users in a tenant, 60–85 ms per check or filtered page. Stored generated columns
 * hold the folded values and the lookups compare them with a plain `=` (leakproof on text), served by the indexes
 * below; the UPN half uses the existing `user_principal_name_folded` (Migration20261225090000_upn_folded).
 * Adding stored columns rewrites the users table once (both in one ALTER TABLE, so one rewrite; at 1,000,000 users,
 * some seconds at start-up, with writers of users waiting).
 */
export class Migration20261228090100_users_folded_email_department extends Migration {
  override name = 'Migration20261228090100_users_folded_email_department';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add column "email_folded" text generated always as (lower(email)) stored, add column "department_folded" text generated always as (lower(department)) stored;`,
    );
    this.addSql(`drop index "users_active_email_index";`);
    this.addSql(
      `create index "users_active_email_index" on "users" ("organization_id", "environment", "tenant_id", "email_folded") where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_department_index" on "users" ("organization_id", "environment", "tenant_id", "department_folded") where "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_department_index";`);
    this.addSql(`drop index "users_active_email_index";`);
    this.addSql(`alter table "users" drop column "email_folded", drop column "department_folded";`);
    this.addSql(
      `create index "users_active_email_index" on "users" ("organization_id", "environment", "tenant_id", lower("email")) where "deleted_at" is null;`,
    );
  }
}
