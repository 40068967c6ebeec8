import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 7: the application role (request path) could update every organization's row. The
 * organizations table has no organization_id, so the isolation policies (db/row-level-security.ts) did not
 * cover it: this policy lets a session see and change its own organization only
 * (`organizations.id = app.organization_id`). The service role (migrations, jobs, authentication, the CLI)
 * bypasses row-level security as for every table; the application role also loses insert and delete on it
 * (row-level-security.ts).
 */
export class Migration20261231100400_organization_self extends Migration {
  override name = 'Migration20261231100400_organization_self';

  override up(): void | Promise<void> {
    this.addSql(`alter table "organizations" enable row level security;`);
    this.addSql(`alter table "organizations" force row level security;`);
    this.addSql(`create policy organization_self on "organizations" for all
      using (id = nullif(current_setting('app.organization_id', true), '')::uuid)
      with check (id = nullif(current_setting('app.organization_id', true), '')::uuid);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy if exists organization_self on "organizations";`);
    this.addSql(`alter table "organizations" no force row level security;`);
    this.addSql(`alter table "organizations" disable row level security;`);
  }
}
