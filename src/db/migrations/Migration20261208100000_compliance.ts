import { Migration } from '@mikro-orm/migrations';

export class Migration20261208100000_compliance extends Migration {
  override name = 'Migration20261208100000_compliance';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "compliance_connectors" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "name" varchar(255) not null, "category" text not null, "source_type" varchar(255) not null, "user_mapping" jsonb not null, "schedule_hours" int not null, "credentials" text not null, "credential_fields" text[] not null, "status" text not null default 'Active', "configuration_error" text null, "paused_by" text null, "consecutive_failures" int not null default 0, "last_import_at" timestamptz null, "imported_until" timestamptz null, "next_run_at" timestamptz null, "items_imported" int not null default 0, "error_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "compliance_connectors_organization_id_index" on "compliance_connectors" ("organization_id");`,
    );
    this.addSql(
      `create index "compliance_connectors_due_index" on "compliance_connectors" ("status", "next_run_at");`,
    );

    this.addSql(
      `create table "compliance_connector_runs" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "connector_id" uuid not null, "scheduled_for" timestamptz not null, "status" text not null default 'Queued', "started_at" timestamptz null, "finished_at" timestamptz null, "duration_ms" int null, "items_imported" int not null default 0, "error_count" int not null default 0, "errors" text[] not null, "failure_reason" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "compliance_connector_runs_organization_id_index" on "compliance_connector_runs" ("organization_id");`,
    );
    this.addSql(
      `create index "compliance_connector_runs_history_index" on "compliance_connector_runs" ("connector_id", "scheduled_for");`,
    );

    this.addSql(
      `alter table "compliance_connectors" add constraint "compliance_connectors_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "compliance_connectors" add constraint "compliance_connectors_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "compliance_connectors" add constraint "compliance_connectors_category_check" check ("category" in ('Communication', 'Social Media', 'Financial', 'HR', 'Physical'));`,
    );
    this.addSql(
      `alter table "compliance_connectors" add constraint "compliance_connectors_status_check" check ("status" in ('Active', 'Paused'));`,
    );

    this.addSql(
      `alter table "compliance_connector_runs" add constraint "compliance_connector_runs_connector_id_foreign" foreign key ("connector_id") references "compliance_connectors" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "compliance_connector_runs" add constraint "compliance_connector_runs_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "compliance_connector_runs" add constraint "compliance_connector_runs_status_check" check ("status" in ('Queued', 'Running', 'Succeeded', 'Failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "compliance_connector_runs" drop constraint "compliance_connector_runs_connector_id_foreign";`,
    );

    this.addSql(`drop table if exists "compliance_connectors" cascade;`);
    this.addSql(`drop table if exists "compliance_connector_runs" cascade;`);
  }
}
