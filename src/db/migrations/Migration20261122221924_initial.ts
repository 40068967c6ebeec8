import { Migration } from '@mikro-orm/migrations';

export class Migration20261122221924_initial extends Migration {
  override name = 'Migration20261122221924_initial';

  override up(): void | Promise<void> {
    // Fixed-window counters of rate-limiter-flexible (RateLimiterPostgres), shared by every server process.
    this.addSql(
      `create table "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`,
    );
    this.addSql(
      `create table "api_keys" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "name" varchar(255) not null, "level" text not null, "prefix" varchar(255) not null, "last_four" varchar(255) not null, "secret_hash" varchar(255) not null, "allowed_ips" text[] not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "api_keys_organization_id_index" on "api_keys" ("organization_id");`);
    this.addSql(
      `alter table "api_keys" add constraint "api_keys_secret_hash_unique" unique ("secret_hash");`,
    );

    this.addSql(
      `create table "domain_events" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "kind" varchar(255) not null, "severity" varchar(255) not null, "tenant_id" uuid null, "payload" jsonb not null, "occurred_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "domain_events_organization_id_index" on "domain_events" ("organization_id");`);
    this.addSql(
      `create index "domain_events_organization_id_environment_occurred_at_index" on "domain_events" ("organization_id", "environment", "occurred_at");`,
    );

    this.addSql(
      `create table "organizations" ("id" uuid not null, "slug" varchar(255) not null, "name" varchar(255) not null, "plan" text not null, "custom_rate_limit_per_minute" int null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "organizations" add constraint "organizations_slug_unique" unique ("slug");`);

    this.addSql(
      `create table "sim_cloud_objects" ("id" uuid not null, "tenant_external_id" varchar(255) not null, "kind" varchar(255) not null, "external_id" varchar(255) not null, "data" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "sim_cloud_objects" add constraint "sim_cloud_objects_tenant_external_id_kind_external_id_unique" unique ("tenant_external_id", "kind", "external_id");`,
    );

    this.addSql(
      `create table "sim_cloud_tenants" ("external_id" varchar(255) not null, "display_name" varchar(255) not null, "domains" text[] not null, "seed" int not null, "tick" int not null default 0, primary key ("external_id"));`,
    );

    this.addSql(
      `create table "tenants" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "name" varchar(255) not null, "domain" varchar(255) not null, "domains" text[] not null, "external_id" varchar(255) not null, "status" text not null, "password_min_length" int not null, "password_require_complexity" boolean not null, "last_synced_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "tenants_organization_id_index" on "tenants" ("organization_id");`);
    this.addSql(
      `create index "tenants_organization_id_environment_created_at_id_index" on "tenants" ("organization_id", "environment", "created_at", "id");`,
    );
    this.addSql(
      `alter table "tenants" add constraint "tenants_organization_id_environment_domain_unique" unique ("organization_id", "environment", "domain");`,
    );

    this.addSql(
      `create table "groups" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "display_name" varchar(255) not null, primary key ("id"));`,
    );
    this.addSql(`create index "groups_organization_id_index" on "groups" ("organization_id");`);

    this.addSql(
      `create table "tenant_licenses" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "sku_id" uuid not null, "sku_part_number" varchar(255) not null, "name" varchar(255) not null, "total" int not null, "consumed" int not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "tenant_licenses_organization_id_index" on "tenant_licenses" ("organization_id");`,
    );
    this.addSql(
      `alter table "tenant_licenses" add constraint "tenant_licenses_tenant_id_sku_id_unique" unique ("tenant_id", "sku_id");`,
    );

    this.addSql(
      `create table "tenant_syncs" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "status" text not null, "progress" int not null, "summary" jsonb null, "error" text null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "tenant_syncs_organization_id_index" on "tenant_syncs" ("organization_id");`);
    this.addSql(
      `create index "tenant_syncs_tenant_id_created_at_index" on "tenant_syncs" ("tenant_id", "created_at");`,
    );

    this.addSql(
      `create table "users" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "display_name" varchar(255) not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "user_principal_name" varchar(255) not null, "job_title" text null, "department" text null, "company_name" text null, "office_location" text null, "business_phone" text null, "mobile_phone" text null, "employee_id" text null, "employee_type" text null, "manager_id" uuid null, "usage_location" varchar(255) null, "account_status" text not null default 'Enabled', "mfa_status" text not null default 'Disabled', "user_type" text not null default 'Member', "source" text not null default 'Cloud', "is_service_account" boolean not null default false, "last_sign_in_at" timestamptz null, "sessions_revoked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, "deleted_by" text null, primary key ("id"));`,
    );
    this.addSql(`create index "users_organization_id_index" on "users" ("organization_id");`);
    this.addSql(`create index "users_deleted_at_index" on "users" ("deleted_at");`);
    this.addSql(
      `create unique index "users_active_upn_unique" on "users" ("organization_id", "environment", lower("user_principal_name")) where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_organization_id_environment_tenant_id_created_at_id_index" on "users" ("organization_id", "environment", "tenant_id", "created_at", "id");`,
    );

    this.addSql(
      `create table "license_assignments" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "user_id" uuid not null, "sku_id" uuid not null, "assigned_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "license_assignments_organization_id_index" on "license_assignments" ("organization_id");`,
    );
    this.addSql(
      `alter table "license_assignments" add constraint "license_assignments_user_id_sku_id_unique" unique ("user_id", "sku_id");`,
    );

    this.addSql(
      `create table "group_memberships" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "group_id" uuid not null, "user_id" uuid not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "group_memberships_organization_id_index" on "group_memberships" ("organization_id");`,
    );
    this.addSql(`create index "group_memberships_user_id_index" on "group_memberships" ("user_id");`);
    this.addSql(
      `alter table "group_memberships" add constraint "group_memberships_group_id_user_id_unique" unique ("group_id", "user_id");`,
    );

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "api_keys" add constraint "api_keys_level_check" check ("level" in ('Read', 'Write', 'Admin'));`,
    );

    this.addSql(
      `alter table "domain_events" add constraint "domain_events_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "organizations" add constraint "organizations_plan_check" check ("plan" in ('starter', 'growth', 'scale', 'custom'));`,
    );

    this.addSql(
      `alter table "tenants" add constraint "tenants_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "tenants" add constraint "tenants_status_check" check ("status" in ('active', 'suspended'));`,
    );

    this.addSql(
      `alter table "groups" add constraint "groups_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "groups" add constraint "groups_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "tenant_licenses" add constraint "tenant_licenses_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tenant_licenses" add constraint "tenant_licenses_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "tenant_syncs" add constraint "tenant_syncs_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tenant_syncs" add constraint "tenant_syncs_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "tenant_syncs" add constraint "tenant_syncs_status_check" check ("status" in ('Queued', 'Running', 'Completed', 'Failed', 'Cancelled'));`,
    );

    this.addSql(
      `alter table "users" add constraint "users_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "users" add constraint "users_manager_id_foreign" foreign key ("manager_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "users" add constraint "users_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_account_status_check" check ("account_status" in ('Enabled', 'Disabled'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_mfa_status_check" check ("mfa_status" in ('Enabled', 'Disabled', 'Enforced'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_user_type_check" check ("user_type" in ('Member', 'Guest'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_source_check" check ("source" in ('Cloud', 'Synced'));`,
    );

    this.addSql(
      `alter table "license_assignments" add constraint "license_assignments_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "license_assignments" add constraint "license_assignments_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "license_assignments" add constraint "license_assignments_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "group_memberships" add constraint "group_memberships_group_id_foreign" foreign key ("group_id") references "groups" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "group_memberships" add constraint "group_memberships_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "group_memberships" add constraint "group_memberships_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rate_limits";`);
    this.addSql(`alter table "groups" drop constraint "groups_tenant_id_foreign";`);
    this.addSql(`alter table "tenant_licenses" drop constraint "tenant_licenses_tenant_id_foreign";`);
    this.addSql(`alter table "tenant_syncs" drop constraint "tenant_syncs_tenant_id_foreign";`);
    this.addSql(`alter table "users" drop constraint "users_tenant_id_foreign";`);
    this.addSql(`alter table "license_assignments" drop constraint "license_assignments_tenant_id_foreign";`);
    this.addSql(`alter table "group_memberships" drop constraint "group_memberships_group_id_foreign";`);
    this.addSql(`alter table "users" drop constraint "users_manager_id_foreign";`);
    this.addSql(`alter table "license_assignments" drop constraint "license_assignments_user_id_foreign";`);
    this.addSql(`alter table "group_memberships" drop constraint "group_memberships_user_id_foreign";`);

    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "domain_events" cascade;`);
    this.addSql(`drop table if exists "organizations" cascade;`);
    this.addSql(`drop table if exists "sim_cloud_objects" cascade;`);
    this.addSql(`drop table if exists "sim_cloud_tenants" cascade;`);
    this.addSql(`drop table if exists "tenants" cascade;`);
    this.addSql(`drop table if exists "groups" cascade;`);
    this.addSql(`drop table if exists "tenant_licenses" cascade;`);
    this.addSql(`drop table if exists "tenant_syncs" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "license_assignments" cascade;`);
    this.addSql(`drop table if exists "group_memberships" cascade;`);
  }
}
