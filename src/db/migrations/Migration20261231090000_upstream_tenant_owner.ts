import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 1: an upstream tenant belongs to one environment of one organization. Until now the same
 * cloud tenant could be onboarded in live and in sandbox (and by two organizations it had granted), so a
 * sandbox key wrote to a customer the live environment manages.
 *
 * - `upstream_tenant_holder(external_id)`: who holds a cloud tenant, for the onboarding check
 *   (src/tenants/upstream-tenant-owner.ts). SECURITY DEFINER because the request path's role sees only its
 *   own organization's rows; it answers only the holder's organization id and environment, nothing else.
 * - A unique constraint on `tenants.external_id`, the backstop for two onboardings at once.
 * - Tenants already held twice: the first onboarding in live (else the oldest) keeps the cloud tenant; every
 *   other copy is cut off from the cloud (its external id gets the suffix `#detached-<id>`, which no cloud
 *   tenant has, so its syncs, writes and actions are refused), its stored data is kept for reading.
 *   Down cannot tell the copies apart again and keeps them detached.
 */
export class Migration20261231090000_upstream_tenant_owner extends Migration {
  override name = 'Migration20261231090000_upstream_tenant_owner';

  override up(): void | Promise<void> {
    this.addSql(`with ranked as (
        select id, row_number() over (partition by external_id
                                      order by (environment = 'live') desc, created_at, id) as place
          from "tenants")
      update "tenants" t set "external_id" = t.external_id || '#detached-' || t.id
        from ranked r where r.id = t.id and r.place > 1;`);
    this.addSql(`alter table "tenants" add constraint "tenants_external_id_unique" unique ("external_id");`);
    this.addSql(`create or replace function upstream_tenant_holder(p_external_id text)
        returns table (organization_id uuid, environment text)
        language sql stable security definer set search_path = public, pg_temp
        as $$ select t.organization_id, t.environment::text from tenants t where t.external_id = p_external_id $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists upstream_tenant_holder(text);`);
    this.addSql(`alter table "tenants" drop constraint if exists "tenants_external_id_unique";`);
  }
}
