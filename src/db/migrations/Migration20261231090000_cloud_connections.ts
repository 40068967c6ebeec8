import { Migration } from '@mikro-orm/migrations';

/**
 * The live environment's cloud connection (issue #29 item 2): at most one per organization and environment.
 * Row-level security comes with the organization_id column (db/row-level-security.ts).
 */
export class Migration20261231090000_cloud_connections extends Migration {
  override name = 'Migration20261231090000_cloud_connections';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "cloud_connections" ("id" uuid not null, "organization_id" uuid not null, "environment" text check ("environment" in ('live', 'sandbox')) not null, "provider" text check ("provider" in ('microsoft365', 'simulated')) not null, "partner_tenant_id" varchar(255) null, "client_id" varchar(255) null, "client_secret" text null, "granted_permissions" text[] not null, "last_tested_at" timestamptz not null, "last_test_succeeded" boolean not null, "last_test_message" text null, "connected_by" varchar(255) not null, "connected_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "cloud_connections_organization_id_index" on "cloud_connections" ("organization_id");`,
    );
    this.addSql(
      `alter table "cloud_connections" add constraint "cloud_connections_organization_id_environment_unique" unique ("organization_id", "environment");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "cloud_connections" cascade;`);
  }
}
