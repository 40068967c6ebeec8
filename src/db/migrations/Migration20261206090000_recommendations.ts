import { Migration } from '@mikro-orm/migrations';

/**
 * Security recommendations (SPEC 2.6, 3.3, 4.2): each tenant's state per recommendation, the audit trail of
 * status moves, and apply operations with one result row per tenant (docs/security-posture.md).
 */
export class Migration20261206090000_recommendations extends Migration {
  override name = 'Migration20261206090000_recommendations';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "recommendation_apply_operations" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "recommendation_id" varchar(255) not null, "status" text not null default 'Queued', "progress" int not null default 0, "notify_admins" boolean not null, "idempotency_key" text null, "request_hash" text null, "requested_by" text not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, "failure_reason" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "recommendation_apply_operations_organization_id_index" on "recommendation_apply_operations" ("organization_id");`,
    );
    this.addSql(
      `create index "recommendation_apply_operations_organization_id_en_8060e_index" on "recommendation_apply_operations" ("organization_id", "environment", "idempotency_key", "created_at");`,
    );

    this.addSql(
      `create table "recommendation_status_changes" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "recommendation_id" varchar(255) not null, "from_status" text not null, "to_status" text not null, "reason" text null, "snooze_days" int null, "changed_by" text not null, "changed_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "recommendation_status_changes_organization_id_index" on "recommendation_status_changes" ("organization_id");`,
    );
    this.addSql(
      `create index "recommendation_status_changes_tenant_id_recommenda_3beeb_index" on "recommendation_status_changes" ("tenant_id", "recommendation_id", "changed_at");`,
    );

    this.addSql(
      `create table "recommendation_apply_results" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "operation_id" uuid not null, "tenant_id" uuid not null, "outcome" text not null default 'pending', "reason" text null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "recommendation_apply_results_organization_id_index" on "recommendation_apply_results" ("organization_id");`,
    );
    this.addSql(
      `alter table "recommendation_apply_results" add constraint "recommendation_apply_results_operation_id_tenant_id_unique" unique ("operation_id", "tenant_id");`,
    );

    this.addSql(
      `create table "tenant_recommendations" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "recommendation_id" varchar(255) not null, "compliant" boolean not null, "apply_supported" boolean not null, "status" text not null, "snoozed_until" timestamptz null, "dismiss_reason" text null, "status_changed_by" text null, "status_changed_at" timestamptz null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "tenant_recommendations_organization_id_index" on "tenant_recommendations" ("organization_id");`,
    );
    this.addSql(
      `create index "tenant_recommendations_snoozed_index" on "tenant_recommendations" ("status", "snoozed_until");`,
    );
    this.addSql(
      `alter table "tenant_recommendations" add constraint "tenant_recommendations_tenant_unique" unique ("tenant_id", "recommendation_id");`,
    );

    this.addSql(
      `alter table "recommendation_apply_operations" add constraint "recommendation_apply_operations_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "recommendation_apply_operations" add constraint "recommendation_apply_operations_status_check" check ("status" in ('Queued', 'Running', 'Succeeded', 'Partially Failed', 'Failed'));`,
    );

    this.addSql(
      `alter table "recommendation_status_changes" add constraint "recommendation_status_changes_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "recommendation_status_changes" add constraint "recommendation_status_changes_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "recommendation_status_changes" add constraint "recommendation_status_changes_from_status_check" check ("from_status" in ('Open', 'In Progress', 'Dismissed', 'Snoozed'));`,
    );
    this.addSql(
      `alter table "recommendation_status_changes" add constraint "recommendation_status_changes_to_status_check" check ("to_status" in ('Open', 'In Progress', 'Dismissed', 'Snoozed'));`,
    );

    this.addSql(
      `alter table "recommendation_apply_results" add constraint "recommendation_apply_results_operation_id_foreign" foreign key ("operation_id") references "recommendation_apply_operations" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "recommendation_apply_results" add constraint "recommendation_apply_results_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "recommendation_apply_results" add constraint "recommendation_apply_results_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "recommendation_apply_results" add constraint "recommendation_apply_results_outcome_check" check ("outcome" in ('pending', 'would apply', 'applied', 'already compliant', 'not supported', 'failed'));`,
    );

    this.addSql(
      `alter table "tenant_recommendations" add constraint "tenant_recommendations_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "tenant_recommendations" add constraint "tenant_recommendations_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "tenant_recommendations" add constraint "tenant_recommendations_status_check" check ("status" in ('Open', 'In Progress', 'Dismissed', 'Snoozed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "recommendation_apply_results" drop constraint "recommendation_apply_results_operation_id_foreign";`,
    );

    this.addSql(`drop table if exists "recommendation_apply_operations" cascade;`);
    this.addSql(`drop table if exists "recommendation_status_changes" cascade;`);
    this.addSql(`drop table if exists "recommendation_apply_results" cascade;`);
    this.addSql(`drop table if exists "tenant_recommendations" cascade;`);
  }
}
