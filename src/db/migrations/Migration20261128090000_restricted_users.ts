import { Migration } from '@mikro-orm/migrations';

/**
 * Restricted mail senders of a tenant (SPEC 2.6 "Restricted user", 3.3, 4.2 /api/exchange/restricted-users):
 * our copy of the cloud's restrictions, one row per restriction (unique by its upstream id in the tenant),
 * with an index for newest-first pages; the user link is cleared when the user is purged.
 */
export class Migration20261128090000_restricted_users extends Migration {
  override name = 'Migration20261128090000_restricted_users';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "restricted_users" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "user_id" uuid null, "user_principal_name" varchar(255) not null, "display_name" varchar(255) not null, "restricted_at" timestamptz not null, "reason" text not null, "status" text not null default 'Restricted', "action_required" text not null, "unblocked_at" timestamptz null, "unblocked_by" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "restricted_users_organization_id_index" on "restricted_users" ("organization_id");`,
    );
    this.addSql(
      `create index "restricted_users_restricted_at_index" on "restricted_users" ("organization_id", "environment", "tenant_id", "restricted_at", "id");`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_reason_check" check ("reason" in ('Outbound spam', 'Sending limit exceeded', 'Suspicious activity'));`,
    );
    this.addSql(
      `alter table "restricted_users" add constraint "restricted_users_status_check" check ("status" in ('Restricted', 'Unblocked'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "restricted_users" cascade;`);
  }
}
