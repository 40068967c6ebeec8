import { Migration } from '@mikro-orm/migrations';

/**
 * A Microsoft 365 customer's consent may grant the app fewer permissions than it asks for: what the consent
 * granted and lacks, read at onboarding and at each sync (src/tenants/tenant-consent.ts), kept on the tenant
 * for the API to show. Null in the sandbox (the simulated cloud grants no permissions one by one).
 */
export class Migration20270127154700_tenant_cloud_permissions extends Migration {
  override name = 'Migration20270127154700_tenant_cloud_permissions';

  override up(): void | Promise<void> {
    this.addSql(`alter table "tenants" add column "cloud_permissions" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "tenants" drop column "cloud_permissions";`);
  }
}
