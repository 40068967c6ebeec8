import { Migration } from '@mikro-orm/migrations';

/**
 * User-management search (issue #14): trigram GIN indexes on lower(display name, UPN, mail) of users that
 * are not deleted, for case-insensitive contains and prefix search on large tenants, and an index for the
 * default display-name order. pg_trgm is a trusted extension: a database owner may create it.
 */
export class Migration20261207090000_user_search extends Migration {
  override name = 'Migration20261207090000_user_search';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create index "users_display_name_order" on "users" ("organization_id", "environment", "tenant_id", lower("display_name"), "id") where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_search_email_trgm" on "users" using gin (lower("email") gin_trgm_ops) where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_search_upn_trgm" on "users" using gin (lower("user_principal_name") gin_trgm_ops) where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_search_display_name_trgm" on "users" using gin (lower("display_name") gin_trgm_ops) where "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_display_name_order";`);
    this.addSql(`drop index "users_search_email_trgm";`);
    this.addSql(`drop index "users_search_upn_trgm";`);
    this.addSql(`drop index "users_search_display_name_trgm";`);
  }
}
