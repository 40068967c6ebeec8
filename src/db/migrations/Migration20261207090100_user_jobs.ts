import { Migration } from '@mikro-orm/migrations';

/**
 * User management jobs (issue #14): bulk user imports with their rows (per-row progress, so a retried job
 * never creates a row twice) and offboardings with their recorded steps (one unfinished per user).
 */
export class Migration20261207090100_user_jobs extends Migration {
  override name = 'Migration20261207090100_user_jobs';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user_imports" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "status" text not null default 'Queued', "total_rows" int not null, "processed_rows" int not null default 0, "created_rows" int not null default 0, "failed_rows" int not null default 0, "failure_reason" text null, "created_by" varchar(255) not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "user_imports_organization_id_index" on "user_imports" ("organization_id");`);
    this.addSql(
      `create index "user_imports_organization_id_environment_tenant_id_2cbd2_index" on "user_imports" ("organization_id", "environment", "tenant_id", "created_at");`,
    );

    this.addSql(
      `create table "user_import_rows" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "import_id" uuid not null, "line" int not null, "user_principal_name" varchar(255) not null, "input" jsonb not null, "password" text null, "status" text not null default 'Pending', "user_id" uuid null, "error" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "user_import_rows_organization_id_index" on "user_import_rows" ("organization_id");`,
    );
    this.addSql(
      `alter table "user_import_rows" add constraint "user_import_rows_import_id_line_unique" unique ("import_id", "line");`,
    );

    this.addSql(
      `create table "user_offboardings" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "user_id" uuid not null, "status" text not null default 'Queued', "options" jsonb not null, "steps" jsonb not null, "failure_reason" text null, "created_by" varchar(255) not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "user_offboardings_organization_id_index" on "user_offboardings" ("organization_id");`,
    );
    this.addSql(
      `create unique index "user_offboardings_one_active" on "user_offboardings" ("user_id") where "status" in ('Queued', 'Running');`,
    );
    this.addSql(
      `create index "user_offboardings_organization_id_environment_user_a179f_index" on "user_offboardings" ("organization_id", "environment", "user_id", "created_at");`,
    );

    this.addSql(
      `alter table "user_imports" add constraint "user_imports_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user_imports" add constraint "user_imports_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "user_imports" add constraint "user_imports_status_check" check ("status" in ('Queued', 'Running', 'Completed', 'CompletedWithErrors', 'Failed'));`,
    );

    this.addSql(
      `alter table "user_import_rows" add constraint "user_import_rows_import_id_foreign" foreign key ("import_id") references "user_imports" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user_import_rows" add constraint "user_import_rows_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "user_import_rows" add constraint "user_import_rows_status_check" check ("status" in ('Pending', 'Creating', 'Created', 'Failed'));`,
    );

    this.addSql(
      `alter table "user_offboardings" add constraint "user_offboardings_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user_offboardings" add constraint "user_offboardings_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user_offboardings" add constraint "user_offboardings_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "user_offboardings" add constraint "user_offboardings_status_check" check ("status" in ('Queued', 'Running', 'Completed', 'Failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_import_rows" drop constraint "user_import_rows_import_id_foreign";`);

    this.addSql(`drop table if exists "user_imports" cascade;`);
    this.addSql(`drop table if exists "user_import_rows" cascade;`);
    this.addSql(`drop table if exists "user_offboardings" cascade;`);
  }
}
