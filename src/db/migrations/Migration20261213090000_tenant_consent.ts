import { Migration } from '@mikro-orm/migrations';

/**
 * Tenant consent (issue #9 item 3): the simulated cloud's delegated admin relationships, one row per grant
 * (revoked ones kept). No grants are made up for tenants onboarded before: a tenant's next sync suspends it
 * until its customer grants the organization access (`npm run -s cli -- tenants grant`); the demo seed
 * grants its own customers.
 */
export class Migration20261213090000_tenant_consent extends Migration {
  override name = 'Migration20261213090000_tenant_consent';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sim_cloud_tenant_grants" ("id" uuid not null, "tenant_external_id" varchar(255) not null, "partner_organization_id" uuid not null, "granted_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create unique index "sim_cloud_tenant_grants_active_unique" on "sim_cloud_tenant_grants" ("tenant_external_id", "partner_organization_id") where "revoked_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sim_cloud_tenant_grants" cascade;`);
  }
}
