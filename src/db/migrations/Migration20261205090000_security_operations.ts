import { Migration } from '@mikro-orm/migrations';

export class Migration20261205090000_security_operations extends Migration {
  override name = 'Migration20261205090000_security_operations';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "endpoint_dlp_policies" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "name" varchar(255) not null, "action" text not null, "device_groups" text[] not null, "monitored_activities" text[] not null, "enabled" boolean not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "endpoint_dlp_policies_organization_id_index" on "endpoint_dlp_policies" ("organization_id");`,
    );
    this.addSql(
      `alter table "endpoint_dlp_policies" add constraint "endpoint_dlp_policies_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `create table "devices" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "device_name" varchar(255) not null, "os_platform" text not null, "os_version" varchar(255) not null, "ownership" text not null, "manufacturer" varchar(255) not null, "model" varchar(255) not null, "enrolled_at" timestamptz not null, "compliance_state" text not null, "compliance_grace_expires_at" timestamptz null, "user_id" uuid null, "risk_level" text not null, "risk_rank" smallint not null, "exposure_score" smallint not null, "health_state" text not null, "onboarding_status" text not null, "last_seen_at" timestamptz not null, "open_recommendations" text[] not null, "isolation_state" text not null default 'Not isolated', "isolation_type" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "devices_organization_id_index" on "devices" ("organization_id");`);
    this.addSql(
      `create index "devices_risk_index" on "devices" ("organization_id", "environment", "tenant_id", "risk_rank", "exposure_score", "id");`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `create table "security_alerts" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "title" text not null, "description" text not null, "severity" text not null, "severity_rank" smallint not null, "status" text not null, "category" varchar(255) not null, "source" varchar(255) not null, "affected_entity" text not null, "user_id" uuid null, "device_id" uuid null, "assigned_to_id" uuid null, "assigned_to" text null, "created_at" timestamptz not null, "status_changed_at" timestamptz null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "security_alerts_organization_id_index" on "security_alerts" ("organization_id");`,
    );
    this.addSql(
      `create index "security_alerts_created_at_index" on "security_alerts" ("organization_id", "environment", "tenant_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `create table "security_alert_comments" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "alert_id" uuid not null, "text" text not null, "author" text not null, "author_name" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "security_alert_comments_organization_id_index" on "security_alert_comments" ("organization_id");`,
    );
    this.addSql(
      `create index "security_alert_comments_alert_index" on "security_alert_comments" ("alert_id", "created_at", "id");`,
    );

    this.addSql(
      `create table "endpoint_dlp_alerts" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "policy_id" uuid not null, "policy_name" varchar(255) not null, "activity" text not null, "device_id" uuid null, "device_name" varchar(255) null, "user_id" uuid null, "user_principal_name" varchar(255) not null, "file_name" text not null, "action_taken" text not null, "occurred_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "endpoint_dlp_alerts_organization_id_index" on "endpoint_dlp_alerts" ("organization_id");`,
    );
    this.addSql(
      `create index "endpoint_dlp_alerts_occurred_at_index" on "endpoint_dlp_alerts" ("organization_id", "environment", "tenant_id", "occurred_at", "id");`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `create table "device_actions" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "device_id" uuid not null, "kind" text not null, "status" text not null default 'Pending', "isolation_type" text null, "scan_type" text null, "reason" text null, "notes" text null, "requested_by" text not null, "requested_at" timestamptz not null, "external_id" text null, "started_at" timestamptz null, "completed_at" timestamptz null, "failure_reason" text null, "threats_found" int null, "duration_seconds" int null, "polls" int not null default 0, primary key ("id"));`,
    );
    this.addSql(
      `create index "device_actions_organization_id_index" on "device_actions" ("organization_id");`,
    );
    this.addSql(
      `create index "device_actions_device_index" on "device_actions" ("device_id", "requested_at", "id");`,
    );
    this.addSql(
      `create unique index "device_actions_one_active_isolation" on "device_actions" ("device_id") where "kind" in ('Isolate', 'Release') and "status" in ('Pending', 'InProgress');`,
    );
    this.addSql(
      `create unique index "device_actions_one_active_scan" on "device_actions" ("device_id") where "kind" = 'Scan' and "status" in ('Pending', 'InProgress');`,
    );

    this.addSql(
      `alter table "endpoint_dlp_policies" add constraint "endpoint_dlp_policies_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_policies" add constraint "endpoint_dlp_policies_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "endpoint_dlp_policies" add constraint "endpoint_dlp_policies_action_check" check ("action" in ('Audit only', 'Block with override', 'Block'));`,
    );

    this.addSql(
      `alter table "devices" add constraint "devices_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_os_platform_check" check ("os_platform" in ('Windows', 'macOS', 'Linux', 'iOS', 'Android'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_ownership_check" check ("ownership" in ('Corporate', 'Personal'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_compliance_state_check" check ("compliance_state" in ('Compliant', 'Non-Compliant', 'In Grace Period', 'Not Evaluated'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_risk_level_check" check ("risk_level" in ('High', 'Medium', 'Low', 'No data'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_health_state_check" check ("health_state" in ('Active', 'Inactive', 'Misconfigured'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_onboarding_status_check" check ("onboarding_status" in ('Onboarded', 'Pending', 'Can be Onboarded', 'Unsupported', 'Failed'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_isolation_state_check" check ("isolation_state" in ('Not isolated', 'Isolated'));`,
    );
    this.addSql(
      `alter table "devices" add constraint "devices_isolation_type_check" check ("isolation_type" in ('Full', 'Selective'));`,
    );

    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_device_id_foreign" foreign key ("device_id") references "devices" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_severity_check" check ("severity" in ('High', 'Medium', 'Low', 'Informational'));`,
    );
    this.addSql(
      `alter table "security_alerts" add constraint "security_alerts_status_check" check ("status" in ('New', 'In Progress', 'Resolved', 'Dismissed'));`,
    );

    this.addSql(
      `alter table "security_alert_comments" add constraint "security_alert_comments_alert_id_foreign" foreign key ("alert_id") references "security_alerts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "security_alert_comments" add constraint "security_alert_comments_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_policy_id_foreign" foreign key ("policy_id") references "endpoint_dlp_policies" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_device_id_foreign" foreign key ("device_id") references "devices" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_activity_check" check ("activity" in ('Copy to removable media', 'Copy to network share', 'Upload to cloud service', 'Access by unallowed apps', 'Print', 'Clipboard copy/paste'));`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" add constraint "endpoint_dlp_alerts_action_taken_check" check ("action_taken" in ('Audited', 'Blocked', 'Overridden'));`,
    );

    this.addSql(
      `alter table "device_actions" add constraint "device_actions_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_device_id_foreign" foreign key ("device_id") references "devices" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_kind_check" check ("kind" in ('Isolate', 'Release', 'Scan'));`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_status_check" check ("status" in ('Pending', 'InProgress', 'Succeeded', 'Failed'));`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_isolation_type_check" check ("isolation_type" in ('Full', 'Selective'));`,
    );
    this.addSql(
      `alter table "device_actions" add constraint "device_actions_scan_type_check" check ("scan_type" in ('quick', 'full'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "endpoint_dlp_alerts" drop constraint "endpoint_dlp_alerts_policy_id_foreign";`);
    this.addSql(`alter table "security_alerts" drop constraint "security_alerts_device_id_foreign";`);
    this.addSql(`alter table "endpoint_dlp_alerts" drop constraint "endpoint_dlp_alerts_device_id_foreign";`);
    this.addSql(`alter table "device_actions" drop constraint "device_actions_device_id_foreign";`);
    this.addSql(
      `alter table "security_alert_comments" drop constraint "security_alert_comments_alert_id_foreign";`,
    );

    this.addSql(`drop table if exists "endpoint_dlp_policies" cascade;`);
    this.addSql(`drop table if exists "devices" cascade;`);
    this.addSql(`drop table if exists "security_alerts" cascade;`);
    this.addSql(`drop table if exists "security_alert_comments" cascade;`);
    this.addSql(`drop table if exists "endpoint_dlp_alerts" cascade;`);
    this.addSql(`drop table if exists "device_actions" cascade;`);
  }
}
