import { Migration } from '@mikro-orm/migrations';

/**
 * Risky sign-ins already announced, in a table of their own (the event history they were looked up in is
 * deleted after 30 days), filled from the events recorded so far; and an index on webhook_deliveries.event_id
 * for housekeeping and the cascade from deleted events (the unique key leads with webhook_id).
 */
export class Migration20261124120000_announced_sign_ins extends Migration {
  override name = 'Migration20261124120000_announced_sign_ins';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "announced_sign_ins" ("organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "sign_in_id" text not null, "announced_at" timestamptz not null, primary key ("organization_id", "environment", "tenant_id", "sign_in_id"));`,
    );
    this.addSql(
      `alter table "announced_sign_ins" add constraint "announced_sign_ins_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `insert into "announced_sign_ins" ("organization_id", "environment", "tenant_id", "sign_in_id", "announced_at") select "organization_id", "environment", "tenant_id", "payload"->'details'->>'signInId', min("occurred_at") from "domain_events" where "kind" = 'security.risky_signin' and "tenant_id" is not null and "payload"->'details'->>'signInId' is not null group by 1, 2, 3, 4;`,
    );

    this.addSql(`create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_event_id_index";`);
    this.addSql(`drop table if exists "announced_sign_ins" cascade;`);
  }
}
