import { Migration } from '@mikro-orm/migrations';

/**
 * Deleted users (SPEC 2.6, 3.4): whether a user held licenses when deleted and its account status before the
 * delete disabled sign-in (what a restore gives back), and an index for a tenant's recycle bin, newest first.
 * Users deleted before this migration get `had_licenses` from their `user.deleted` event (kept 30 days, as
 * long as the recovery window), which lists the licenses returned.
 */
export class Migration20261125090000_deleted_users extends Migration {
  override name = 'Migration20261125090000_deleted_users';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add "had_licenses" boolean not null default false, add "account_status_at_deletion" text null;`,
    );
    this.addSql(
      `alter table "users" add constraint "users_account_status_at_deletion_check" check ("account_status_at_deletion" in ('Enabled', 'Disabled'));`,
    );
    this.addSql(
      `create index "users_deleted_index" on "users" ("organization_id", "environment", "tenant_id", "deleted_at" desc, "id" desc) where "deleted_at" is not null;`,
    );
    this.addSql(
      `update "users" as "u" set "had_licenses" = true from "domain_events" as "e" where "u"."deleted_at" is not null and "e"."kind" = 'user.deleted' and "e"."payload"->'details'->>'userId' = "u"."id"::text and jsonb_array_length(coalesce("e"."payload"->'details'->'licensesReturned', '[]'::jsonb)) > 0;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_deleted_index";`);
    this.addSql(`alter table "users" drop constraint "users_account_status_at_deletion_check";`);
    this.addSql(`alter table "users" drop column "had_licenses", drop column "account_status_at_deletion";`);
  }
}
