import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 2: the directory roles a user holds, from the cloud (tenant sync). Privileged accounts
 * (administrator roles) need the Admin level for reset, offboarding and delete (src/users/privileged-account.ts).
 * Existing users get none until their tenant's next sync.
 */
export class Migration20261231090100_directory_roles extends Migration {
  override name = 'Migration20261231090100_directory_roles';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add column "directory_roles" text[] not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users" drop column "directory_roles";`);
  }
}
