import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #29 (users from a stored deltaLink, stale guests without sign-in data): one row per tenant with the
 * cursor the next user sync starts from and why the last one had no sign-in data (src/users/user-sync-state.entity.ts).
 */
export class Migration20270127120400_user_sync_states extends Migration {
  override name = 'Migration20270127120400_user_sync_states';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user_sync_states" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "delta_cursor" text null, "sign_in_data_unavailable" text null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "user_sync_states_organization_id_index" on "user_sync_states" ("organization_id");`,
    );
    this.addSql(
      `alter table "user_sync_states" add constraint "user_sync_states_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `alter table "user_sync_states" add constraint "user_sync_states_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "user_sync_states" add constraint "user_sync_states_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user_sync_states" cascade;`);
  }
}
