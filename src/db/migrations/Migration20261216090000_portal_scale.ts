import { Migration } from '@mikro-orm/migrations';

/** Tables whose changes make a tenant's portal aggregates stale (docs/portal.md "Aggregates"). */
const MARKED_TABLES = ['users', 'license_assignments', 'tenant_licenses', 'tenant_recommendations'];

/**
 * Issue #11 items 3-5: the portal's stored per-tenant aggregates and the dirty marks that statement-level
 * triggers write (one row per changing statement and tenant, from the transition tables: no row is ever
 * updated, so concurrent writers never wait on each other); tenant groups; the cross-tenant user search's
 * accent- and case-folded trigram index and its A-to-Z order across tenants.
 */
export class Migration20261216090000_portal_scale extends Migration {
  override name = 'Migration20261216090000_portal_scale';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "portal_dirty_tenants" ("id" bigserial primary key, "tenant_id" uuid not null, "organization_id" uuid not null, "environment" text not null, "marked_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "portal_dirty_tenants_organization_id_environment_index" on "portal_dirty_tenants" ("organization_id", "environment");`,
    );

    this.addSql(
      `create table "portal_tenant_aggregates" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "secure_score_percent" double precision null, "inactive_licensed_users" int not null default 0, "inactive_by_sku" jsonb not null, "refreshed_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "portal_tenant_aggregates_organization_id_index" on "portal_tenant_aggregates" ("organization_id");`,
    );
    this.addSql(
      `alter table "portal_tenant_aggregates" add constraint "portal_tenant_aggregates_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `create index "portal_tenant_aggregates_organization_id_environment_index" on "portal_tenant_aggregates" ("organization_id", "environment");`,
    );

    this.addSql(
      `create table "tenant_groups" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "name" varchar(100) not null, "description" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "tenant_groups_organization_id_index" on "tenant_groups" ("organization_id");`);
    this.addSql(
      `create index "tenant_groups_organization_id_environment_created_at_id_index" on "tenant_groups" ("organization_id", "environment", "created_at", "id");`,
    );
    this.addSql(
      `create unique index "tenant_groups_name_unique" on "tenant_groups" ("organization_id", "environment", lower("name"));`,
    );

    this.addSql(
      `create table "tenant_group_members" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "group_id" uuid not null, "tenant_id" uuid not null, "added_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "tenant_group_members_organization_id_index" on "tenant_group_members" ("organization_id");`,
    );
    this.addSql(
      `create index "tenant_group_members_tenant_id_index" on "tenant_group_members" ("tenant_id");`,
    );
    this.addSql(
      `alter table "tenant_group_members" add constraint "tenant_group_members_group_id_tenant_id_unique" unique ("group_id", "tenant_id");`,
    );

    this.addSql(
      `alter table "portal_tenant_aggregates" add constraint "portal_tenant_aggregates_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "portal_tenant_aggregates" add constraint "portal_tenant_aggregates_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "tenant_groups" add constraint "tenant_groups_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "tenant_group_members" add constraint "tenant_group_members_group_id_foreign" foreign key ("group_id") references "tenant_groups" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tenant_group_members" add constraint "tenant_group_members_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tenant_group_members" add constraint "tenant_group_members_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    for (const [suffix, rows] of [
      ['new', 'new_rows'],
      ['old', 'old_rows'],
    ]) {
      this
        .addSql(`create or replace function portal_mark_dirty_${suffix}() returns trigger language plpgsql as $$
        begin
          insert into portal_dirty_tenants (tenant_id, organization_id, environment)
            select distinct tenant_id, organization_id, environment from ${rows};
          return null;
        end $$;`);
    }
    this.addSql(`create or replace function portal_mark_dirty_both() returns trigger language plpgsql as $$
      begin
        insert into portal_dirty_tenants (tenant_id, organization_id, environment)
          select tenant_id, organization_id, environment from new_rows
          union
          select tenant_id, organization_id, environment from old_rows;
        return null;
      end $$;`);
    for (const table of MARKED_TABLES) {
      this.addSql(`create trigger "${table}_portal_dirty_insert" after insert on "${table}"
        referencing new table as new_rows for each statement execute function portal_mark_dirty_new();`);
      this.addSql(`create trigger "${table}_portal_dirty_update" after update on "${table}"
        referencing old table as old_rows new table as new_rows for each statement execute function portal_mark_dirty_both();`);
      this.addSql(`create trigger "${table}_portal_dirty_delete" after delete on "${table}"
        referencing old table as old_rows for each statement execute function portal_mark_dirty_old();`);
    }

    // Cross-tenant user search: unaccent() is only STABLE (its dictionary could change), so an index needs an
    // IMMUTABLE wrapper naming the dictionary; the key folds case and accents of name, UPN and mail together.
    this.addSql(`create extension if not exists unaccent;`);
    this.addSql(`create or replace function user_search_fold(value text) returns text
      language sql immutable parallel safe strict
      as $$ select lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;`);
    this
      .addSql(`create or replace function user_search_key(display_name text, user_principal_name text, email text)
      returns text language sql immutable parallel safe
      as $$ select public.user_search_fold(coalesce(display_name, '') || ' ' || coalesce(user_principal_name, '') || ' ' || coalesce(email, '')) $$;`);
    this.addSql(
      `create index "users_directory_search_trgm" on "users" using gin (user_search_key("display_name", "user_principal_name", "email") gin_trgm_ops) where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_directory_order" on "users" ("organization_id", "environment", user_search_fold("display_name"), "id") where "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "users_directory_search_trgm";`);
    this.addSql(`drop index if exists "users_directory_order";`);
    this.addSql(`drop function if exists user_search_key(text, text, text);`);
    this.addSql(`drop function if exists user_search_fold(text);`);
    for (const table of MARKED_TABLES) {
      for (const event of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger if exists "${table}_portal_dirty_${event}" on "${table}";`);
    }
    for (const suffix of ['new', 'old', 'both'])
      this.addSql(`drop function if exists portal_mark_dirty_${suffix}();`);
    this.addSql(
      `alter table "tenant_group_members" drop constraint "tenant_group_members_group_id_foreign";`,
    );

    this.addSql(`drop table if exists "portal_dirty_tenants" cascade;`);
    this.addSql(`drop table if exists "portal_tenant_aggregates" cascade;`);
    this.addSql(`drop table if exists "tenant_groups" cascade;`);
    this.addSql(`drop table if exists "tenant_group_members" cascade;`);
  }
}
