import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 7: bulk-import passwords were kept in clear while pending, and after a failed import.
 * New rows are sealed (user-import.service.ts) and a failed import erases its rows' passwords
 * (user-import.task.ts); this erases those left behind: the passwords of rows that are done, and of every
 * row of an import that finished. Rows still pending keep theirs (their job reads them as is) until created.
 * Down has nothing to restore.
 */
export class Migration20261231100300_import_passwords extends Migration {
  override name = 'Migration20261231100300_import_passwords';

  override up(): void | Promise<void> {
    this.addSql(`update "user_import_rows" r set "password" = null
      where r.password is not null
        and (r.status not in ('Pending', 'Creating')
             or exists (select 1 from "user_imports" i
                         where i.id = r.import_id and i.status in ('Completed', 'CompletedWithErrors', 'Failed')));`);
  }

  override down(): void | Promise<void> {}
}
