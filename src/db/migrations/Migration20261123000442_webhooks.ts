import { Migration } from '@mikro-orm/migrations';

/** Webhooks, their deliveries and attempts, integrations, and the job workers' heartbeats. */
export class Migration20261123000442_webhooks extends Migration {
  override name = 'Migration20261123000442_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "job_worker_heartbeats" ("worker_id" text not null, "seen_at" timestamptz not null, primary key ("worker_id"));`,
    );

    this.addSql(
      `create table "webhooks" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "url" text not null, "events" text[] not null, "filter_tenant_ids" text[] not null, "filter_min_severity" text null, "headers" jsonb not null, "enabled" boolean not null, "format" text not null, "signing_secret" text not null, "previous_signing_secret" text null, "previous_secret_expires_at" timestamptz null, "disabled_at" timestamptz null, "disabled_reason" text null, "failing_since" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "webhooks_organization_id_index" on "webhooks" ("organization_id");`);
    this.addSql(
      `create index "webhooks_organization_id_environment_created_at_id_index" on "webhooks" ("organization_id", "environment", "created_at", "id");`,
    );

    this.addSql(
      `create table "integrations" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "type" text not null, "webhook_id" uuid not null, "connected_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "integrations_organization_id_index" on "integrations" ("organization_id");`);
    this.addSql(
      `alter table "integrations" add constraint "integrations_webhook_id_unique" unique ("webhook_id");`,
    );
    this.addSql(
      `alter table "integrations" add constraint "integrations_organization_id_environment_type_unique" unique ("organization_id", "environment", "type");`,
    );

    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "webhook_id" uuid not null, "event_id" uuid not null, "event" varchar(255) not null, "status" text not null, "attempt_count" int not null, "next_attempt_at" timestamptz null, "last_attempt_at" timestamptz null, "last_status_code" int null, "last_error" text null, "created_at" timestamptz not null, "completed_at" timestamptz null, "manual_attempt" boolean not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_organization_id_index" on "webhook_deliveries" ("organization_id");`,
    );
    this.addSql(
      `create index "webhook_deliveries_webhook_id_created_at_id_index" on "webhook_deliveries" ("webhook_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`,
    );

    this.addSql(
      `create table "webhook_attempts" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "delivery_id" uuid not null, "attempt_number" int not null, "attempted_at" timestamptz not null, "status_code" int null, "latency_ms" int not null, "error" text null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_attempts_organization_id_index" on "webhook_attempts" ("organization_id");`,
    );
    this.addSql(
      `create index "webhook_attempts_delivery_id_attempt_number_index" on "webhook_attempts" ("delivery_id", "attempt_number");`,
    );

    this.addSql(
      `alter table "webhooks" add constraint "webhooks_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "webhooks" add constraint "webhooks_format_check" check ("format" in ('standard', 'slack', 'teams'));`,
    );

    this.addSql(
      `alter table "integrations" add constraint "integrations_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "integrations" add constraint "integrations_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "integrations" add constraint "integrations_type_check" check ("type" in ('webhook', 'slack', 'teams'));`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_webhook_id_foreign" foreign key ("webhook_id") references "webhooks" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "domain_events" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('Pending', 'Succeeded', 'Failed', 'Cancelled'));`,
    );

    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "integrations" drop constraint "integrations_webhook_id_foreign";`);
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_webhook_id_foreign";`);
    this.addSql(`alter table "webhook_attempts" drop constraint "webhook_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "job_worker_heartbeats" cascade;`);
    this.addSql(`drop table if exists "webhooks" cascade;`);
    this.addSql(`drop table if exists "integrations" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_attempts" cascade;`);
  }
}
