import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #31 goal 6: a delivery job takes a batch of one endpoint's due first attempts (src/webhooks/
 * webhook-endpoint-batch.ts). A delivery being attempted is claimed by the job attempting it (`claimed_by`, the
 * graphile-worker job id) until `claimed_until`, so two jobs never attempt it at once, the job that runs again
 * after a crash takes back its own claims at once, and an attempt is recorded only by its claimant. The partial
 * index finds an endpoint's pending first attempts without reading its delivery history.
 */
export class Migration20270127180600_webhook_delivery_claims extends Migration {
  override name = 'Migration20270127180600_webhook_delivery_claims';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_deliveries" add column "claimed_by" bigint null, add column "claimed_until" timestamptz null;`,
    );
    this.addSql(
      `create index "webhook_deliveries_first_attempts_index" on "webhook_deliveries" ("webhook_id", "created_at") where "status" = 'Pending' and "attempt_count" = 0;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_first_attempts_index";`);
    this.addSql(
      `alter table "webhook_deliveries" drop column if exists "claimed_by", drop column if exists "claimed_until";`,
    );
  }
}
