import { Migration } from '@mikro-orm/migrations';

/** Issue #11: every list's page is read through an index in its order (test/rest/list-plans.test.ts). */
export class Migration20261204180000_list_page_indexes extends Migration {
  override name = 'Migration20261204180000_list_page_indexes';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "api_keys_organization_id_environment_created_at_id_index" on "api_keys" ("organization_id", "environment", "created_at", "id");`,
    );

    this.addSql(
      `create index "members_organization_id_created_at_id_index" on "members" ("organization_id", "created_at", "id");`,
    );

    this.addSql(
      `create index "oauth_clients_organization_id_environment_created_at_id_index" on "oauth_clients" ("organization_id", "environment", "created_at", "id");`,
    );

    this.addSql(
      `create index "tenant_licenses_organization_id_environment_tenant_cb854_index" on "tenant_licenses" ("organization_id", "environment", "tenant_id", "name", "id");`,
    );

    this.addSql(
      `create index "license_assignments_organization_id_environment_te_98d46_index" on "license_assignments" ("organization_id", "environment", "tenant_id", "assigned_at", "id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "api_keys_organization_id_environment_created_at_id_index";`);

    this.addSql(`drop index "license_assignments_organization_id_environment_te_98d46_index";`);

    this.addSql(`drop index "members_organization_id_created_at_id_index";`);

    this.addSql(`drop index "oauth_clients_organization_id_environment_created_at_id_index";`);

    this.addSql(`drop index "tenant_licenses_organization_id_environment_tenant_cb854_index";`);
  }
}
