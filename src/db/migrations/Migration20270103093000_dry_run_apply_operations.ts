import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 4: a dry-run apply asked the cloud for every tenant inside the request; it is now an
 * operation run by the recommendation-apply job like a real apply, marked `dry_run` (its job previews and
 * changes nothing). Existing rows are real applies.
 */
export class Migration20270103093000_dry_run_apply_operations extends Migration {
  override name = 'Migration20270103093000_dry_run_apply_operations';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "recommendation_apply_operations" add column "dry_run" boolean not null default false;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "recommendation_apply_operations" drop column "dry_run";`);
  }
}
