import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 7 follow-up: a Failed import keeps its remaining rows' sealed passwords so that it can be
 * retried, but not for ever. Housekeeping erases them a retention after the failure
 * (FAILED_IMPORT_PASSWORD_RETENTION_MS) and records when here, so a retry afterwards can say why it is refused.
 */
export class Migration20270103094000_import_passwords_purged extends Migration {
  override name = 'Migration20270103094000_import_passwords_purged';

  override up(): void | Promise<void> {
    this.addSql(`alter table "user_imports" add column "passwords_purged_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_imports" drop column "passwords_purged_at";`);
  }
}
