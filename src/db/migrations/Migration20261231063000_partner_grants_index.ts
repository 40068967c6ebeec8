import { Migration } from '@mikro-orm/migrations';

/**
 * A partner's active grants in tenant order: the list of customers a partner may onboard (availableTenants,
 * GET /v1/available-tenants) reads its keyset page from it instead of every grant.
 */
export class Migration20261231063000_partner_grants_index extends Migration {
  override name = 'Migration20261231063000_partner_grants_index';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "sim_cloud_tenant_grants_partner_index" on "sim_cloud_tenant_grants" ("partner_organization_id", "tenant_external_id") where "revoked_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "sim_cloud_tenant_grants_partner_index";`);
  }
}
