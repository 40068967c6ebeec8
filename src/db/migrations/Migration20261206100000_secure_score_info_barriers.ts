import { Migration } from '@mikro-orm/migrations';

/**
 * Secure-score daily snapshots (one per tenant and UTC day) and information barriers: segments, policies and
 * applications of a tenant's policy set (docs/security-posture.md).
 */
export class Migration20261206100000_secure_score_info_barriers extends Migration {
  override name = 'Migration20261206100000_secure_score_info_barriers';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "secure_score_snapshots" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "day" date not null, "score" int not null, "max_score" int not null, "recorded_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "secure_score_snapshots_organization_id_index" on "secure_score_snapshots" ("organization_id");`,
    );
    this.addSql(
      `alter table "secure_score_snapshots" add constraint "secure_score_snapshots_day_unique" unique ("tenant_id", "day");`,
    );

    this.addSql(
      `create table "info_barrier_segments" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "name" varchar(255) not null, "attribute" text not null, "value" varchar(255) not null, "member_count" int not null, "created_at" timestamptz not null, "created_by" text not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "info_barrier_segments_organization_id_index" on "info_barrier_segments" ("organization_id");`,
    );
    this.addSql(
      `create index "info_barrier_segments_organization_id_environment__3c027_index" on "info_barrier_segments" ("organization_id", "environment", "tenant_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "info_barrier_segments" add constraint "info_barrier_segments_name_unique" unique ("tenant_id", "name");`,
    );

    this.addSql(
      `create table "info_barrier_policies" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "name" varchar(255) not null, "type" text not null, "source_segment_id" uuid not null, "target_segment_ids" text[] not null, "created_at" timestamptz not null, "created_by" text not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "info_barrier_policies_organization_id_index" on "info_barrier_policies" ("organization_id");`,
    );
    this.addSql(
      `create index "info_barrier_policies_organization_id_environment__b5c55_index" on "info_barrier_policies" ("organization_id", "environment", "tenant_id", "created_at", "id");`,
    );

    this.addSql(
      `create table "info_barrier_applications" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "status" text not null default 'Pending', "started_at" timestamptz not null, "pushed_at" timestamptz null, "applied_at" timestamptz null, "failure_reason" text null, "segment_count" int not null, "policy_count" int not null, "requested_by" text not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "info_barrier_applications_organization_id_index" on "info_barrier_applications" ("organization_id");`,
    );
    this.addSql(
      `create index "info_barrier_applications_status_started_at_index" on "info_barrier_applications" ("status", "started_at");`,
    );
    this.addSql(
      `create index "info_barrier_applications_tenant_id_started_at_index" on "info_barrier_applications" ("tenant_id", "started_at");`,
    );

    this.addSql(
      `alter table "secure_score_snapshots" add constraint "secure_score_snapshots_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "secure_score_snapshots" add constraint "secure_score_snapshots_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "info_barrier_segments" add constraint "info_barrier_segments_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "info_barrier_segments" add constraint "info_barrier_segments_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "info_barrier_segments" add constraint "info_barrier_segments_attribute_check" check ("attribute" in ('department', 'jobTitle', 'memberOf', 'office', 'company', 'extensionAttribute1', 'extensionAttribute2', 'extensionAttribute3', 'extensionAttribute4', 'extensionAttribute5', 'extensionAttribute6', 'extensionAttribute7', 'extensionAttribute8', 'extensionAttribute9', 'extensionAttribute10', 'extensionAttribute11', 'extensionAttribute12', 'extensionAttribute13', 'extensionAttribute14', 'extensionAttribute15'));`,
    );

    this.addSql(
      `alter table "info_barrier_policies" add constraint "info_barrier_policies_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "info_barrier_policies" add constraint "info_barrier_policies_source_segment_id_foreign" foreign key ("source_segment_id") references "info_barrier_segments" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "info_barrier_policies" add constraint "info_barrier_policies_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "info_barrier_policies" add constraint "info_barrier_policies_type_check" check ("type" in ('Block', 'Allow'));`,
    );

    this.addSql(
      `alter table "info_barrier_applications" add constraint "info_barrier_applications_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "info_barrier_applications" add constraint "info_barrier_applications_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "info_barrier_applications" add constraint "info_barrier_applications_status_check" check ("status" in ('Pending', 'Applying', 'Applied', 'Failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "info_barrier_policies" drop constraint "info_barrier_policies_source_segment_id_foreign";`,
    );

    this.addSql(`drop table if exists "secure_score_snapshots" cascade;`);
    this.addSql(`drop table if exists "info_barrier_segments" cascade;`);
    this.addSql(`drop table if exists "info_barrier_policies" cascade;`);
    this.addSql(`drop table if exists "info_barrier_applications" cascade;`);
  }
}
