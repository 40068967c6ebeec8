import { Migration } from '@mikro-orm/migrations';

export class Migration20261208090000_backup extends Migration {
  override name = 'Migration20261208090000_backup';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "restore_jobs" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "workload" text not null, "restore_type" text not null, "snapshot_id" uuid not null, "snapshot_external_id" varchar(255) not null, "snapshot_taken_at" timestamptz not null, "resource_name" varchar(255) not null, "target_type" text not null, "target_tenant_id" uuid null, "target_location" text null, "conflict_policy" text not null, "status" text not null default 'Queued', "finished" boolean not null default false, "item_count" int not null, "processed_count" int not null default 0, "restored_count" int not null default 0, "skipped_count" int not null default 0, "failed_count" int not null default 0, "initiated_by" varchar(255) not null, "created_at" timestamptz not null, "started_at" timestamptz null, "completed_at" timestamptz null, "failure_reason" text null, "download_secret" text null, "download_expires_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "restore_jobs_organization_id_index" on "restore_jobs" ("organization_id");`);
    this.addSql(
      `create index "restore_jobs_history_index" on "restore_jobs" ("organization_id", "environment", "tenant_id", "finished", "completed_at");`,
    );

    this.addSql(
      `create table "restore_job_items" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "job_id" uuid not null, "ordinal" int not null, "item_id" varchar(255) not null, "name" varchar(255) not null, "path" text not null, "item_type" varchar(255) not null, "status" text not null default 'Pending', "detail" text null, "restored_to" text null, "exported" jsonb null, "processed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "restore_job_items_organization_id_index" on "restore_job_items" ("organization_id");`,
    );
    this.addSql(
      `create index "restore_job_items_order_index" on "restore_job_items" ("job_id", "status", "ordinal");`,
    );
    this.addSql(
      `alter table "restore_job_items" add constraint "restore_job_items_item_unique" unique ("job_id", "item_id");`,
    );

    this.addSql(
      `create table "backup_snapshots" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "workload" text not null, "resource_id" varchar(255) not null, "resource_name" varchar(255) not null, "user_id" uuid null, "taken_at" timestamptz not null, "expires_at" timestamptz not null, "item_count" int not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "backup_snapshots_organization_id_index" on "backup_snapshots" ("organization_id");`,
    );
    this.addSql(
      `create index "backup_snapshots_taken_at_index" on "backup_snapshots" ("organization_id", "environment", "tenant_id", "taken_at", "id");`,
    );
    this.addSql(
      `alter table "backup_snapshots" add constraint "backup_snapshots_external_id_unique" unique ("organization_id", "environment", "tenant_id", "external_id");`,
    );

    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_workload_check" check ("workload" in ('Mailbox', 'Personal file storage', 'Site collaboration', 'Team chat'));`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_restore_type_check" check ("restore_type" in ('Granular item', 'Container', 'Point-in-time', 'Cross-tenant'));`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_target_type_check" check ("target_type" in ('Original location', 'Different location', 'Export'));`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_conflict_policy_check" check ("conflict_policy" in ('Skip', 'Overwrite', 'Keep both'));`,
    );
    this.addSql(
      `alter table "restore_jobs" add constraint "restore_jobs_status_check" check ("status" in ('Queued', 'Running', 'Completed', 'CompletedWithErrors', 'Failed', 'Cancelled'));`,
    );

    this.addSql(
      `alter table "restore_job_items" add constraint "restore_job_items_job_id_foreign" foreign key ("job_id") references "restore_jobs" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "restore_job_items" add constraint "restore_job_items_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "restore_job_items" add constraint "restore_job_items_status_check" check ("status" in ('Pending', 'Restored', 'Skipped', 'Failed', 'Cancelled'));`,
    );

    this.addSql(
      `alter table "backup_snapshots" add constraint "backup_snapshots_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "backup_snapshots" add constraint "backup_snapshots_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "backup_snapshots" add constraint "backup_snapshots_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "backup_snapshots" add constraint "backup_snapshots_workload_check" check ("workload" in ('Mailbox', 'Personal file storage', 'Site collaboration', 'Team chat'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "restore_job_items" drop constraint "restore_job_items_job_id_foreign";`);

    this.addSql(`drop table if exists "restore_jobs" cascade;`);
    this.addSql(`drop table if exists "restore_job_items" cascade;`);
    this.addSql(`drop table if exists "backup_snapshots" cascade;`);
  }
}
