import { Migration } from '@mikro-orm/migrations';

export class Migration20261210090000_device_management extends Migration {
  override name = 'Migration20261210090000_device_management';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "enrollment_restrictions" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "name" varchar(128) not null, "description" text null, "restriction_type" text not null, "is_default" boolean not null, "priority" int not null, "version" int not null, "assigned_to_all_users" boolean not null, "group_ids" text[] not null, "platform_restrictions" jsonb not null, "device_limit" smallint null, "platform_limits" jsonb not null, "group_overrides" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "enrollment_restrictions_organization_id_index" on "enrollment_restrictions" ("organization_id");`,
    );
    this.addSql(
      `create unique index "enrollment_restrictions_default_unique" on "enrollment_restrictions" ("organization_id", "environment", "tenant_id") where "is_default";`,
    );
    this.addSql(
      `create index "enrollment_restrictions_priority_index" on "enrollment_restrictions" ("organization_id", "environment", "tenant_id", "is_default", "priority");`,
    );

    this.addSql(
      `create table "blocked_enrollment_attempts" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "user_id" uuid null, "user_principal_name" varchar(255) not null, "device_name" varchar(255) not null, "platform" text not null, "os_version" varchar(255) not null, "ownership" text not null, "manufacturer" varchar(255) not null, "reason" text not null, "detail" text not null, "policy_id" uuid null, "policy_name" varchar(255) not null, "attempted_at" timestamptz not null, "recorded_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "blocked_enrollment_attempts_organization_id_index" on "blocked_enrollment_attempts" ("organization_id");`,
    );
    this.addSql(
      `create index "blocked_enrollment_attempts_time_index" on "blocked_enrollment_attempts" ("organization_id", "environment", "tenant_id", "attempted_at", "id");`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `create index "devices_dashboard_index" on "devices" ("organization_id", "environment", "tenant_id", "os_platform", "compliance_state", "ownership", "enrolled_at");`,
    );

    this.addSql(
      `alter table "enrollment_restrictions" add constraint "enrollment_restrictions_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "enrollment_restrictions" add constraint "enrollment_restrictions_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "enrollment_restrictions" add constraint "enrollment_restrictions_restriction_type_check" check ("restriction_type" in ('Device Type Restrictions', 'Device Limit Restrictions'));`,
    );

    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_policy_id_foreign" foreign key ("policy_id") references "enrollment_restrictions" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_platform_check" check ("platform" in ('Windows MDM', 'macOS', 'iOS/iPadOS', 'Android Enterprise', 'Android Device Admin'));`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_ownership_check" check ("ownership" in ('Corporate', 'Personal'));`,
    );
    this.addSql(
      `alter table "blocked_enrollment_attempts" add constraint "blocked_enrollment_attempts_reason_check" check ("reason" in ('Platform Blocked', 'OS Version', 'Device Limit', 'Personal Device'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "blocked_enrollment_attempts" drop constraint "blocked_enrollment_attempts_policy_id_foreign";`,
    );

    this.addSql(`drop table if exists "enrollment_restrictions" cascade;`);
    this.addSql(`drop table if exists "blocked_enrollment_attempts" cascade;`);

    this.addSql(`drop index "devices_dashboard_index";`);
  }
}
