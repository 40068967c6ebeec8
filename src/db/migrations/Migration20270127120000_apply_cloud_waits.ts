import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #30 item 7: how long an apply waited for a tenant's cloud call budget (src/cloud/cloud-call-budget.ts),
 * shown per tenant in the operation's results.
 */
export class Migration20270127120000_apply_cloud_waits extends Migration {
  override name = 'Migration20270127120000_apply_cloud_waits';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "recommendation_apply_results" add column "cloud_wait_ms" integer not null default 0;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "recommendation_apply_results" drop column "cloud_wait_ms";`);
  }
}
