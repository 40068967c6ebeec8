import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #33: the list of available tenants marks the customers it could not onboard because another
 * environment or organization holds them (GET /v1/available-tenants, `availableTenants`, `tenants available`).
 * `upstream_tenant_holders(external_ids)` asks for a whole page in one statement, like
 * `upstream_tenant_holder` (migration 20261231100000) for one: SECURITY DEFINER, because the request path's
 * role sees only its own organization's rows, and it answers only each holder's organization id and
 * environment.
 */
export class Migration20270103091800_upstream_tenant_holders extends Migration {
  override name = 'Migration20270103091800_upstream_tenant_holders';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function upstream_tenant_holders(p_external_ids text[])
        returns table (external_id text, organization_id uuid, environment text)
        language sql stable security definer set search_path = public, pg_temp
        as $$ select t.external_id, t.organization_id, t.environment::text
                from tenants t where t.external_id = any(p_external_ids) $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists upstream_tenant_holders(text[]);`);
  }
}
