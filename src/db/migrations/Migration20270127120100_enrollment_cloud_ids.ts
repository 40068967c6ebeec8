import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #30 item 5: the Intune deviceEnrollmentConfiguration each enrollment restriction was written to
 * (null: not written to a cloud, as with the simulated cloud), and the cloud's version of it we last wrote or
 * read, so a change made in the Intune portal shows as drift.
 */
export class Migration20270127120100_enrollment_cloud_ids extends Migration {
  override name = 'Migration20270127120100_enrollment_cloud_ids';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "enrollment_restrictions" add column "cloud_id" text null, add column "cloud_drift" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "enrollment_restrictions" drop column "cloud_id", drop column "cloud_drift";`);
  }
}
