import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11, row-level security: a tenant's user search (src/user-management/user-search.ts) matched
 * `lower(display_name|user_principal_name|email) like ?` in the request's statement. Behind the organization
 * policy (a security barrier) LIKE and lower() are not leakproof, so the trigram indexes users_search_*_trgm could
 * not serve it and every search read all of the tenant's users. As for the cross-tenant search
 * (migration 20261219090000), the match runs in a function owned by the service role, which the policies do not
 * bind, so its LIKE is served by those indexes. It applies the policy's condition itself: an application-role
 * caller gets ids only for the organization and environment its connection's settings name, whatever it passes;
 * the service role (role "none": jobs, or ROW_LEVEL_SECURITY=off) gets the organization it names, as it could read
 * anyway. `pattern` is a LIKE pattern over the lower-cased columns (the caller escapes the term and places the
 * wildcards: contains or prefix). The caller looks the ids up by primary key (`id = any(array(...))`).
 */
export class Migration20261225090200_scoped_tenant_user_search extends Migration {
  override name = 'Migration20261225090200_scoped_tenant_user_search';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function scoped_tenant_user_search(
        organization_id uuid, environment text, tenant_id uuid, pattern text)
      returns table (id uuid)
      language sql stable security definer set search_path = public, pg_temp rows 100
      as $$
        select u.id from public.users u
         where u.organization_id = scoped_tenant_user_search.organization_id
           and u.environment = scoped_tenant_user_search.environment
           and u.tenant_id = scoped_tenant_user_search.tenant_id
           and u.deleted_at is null
           and (lower(u.display_name) like scoped_tenant_user_search.pattern
                or lower(u.user_principal_name) like scoped_tenant_user_search.pattern
                or lower(u.email) like scoped_tenant_user_search.pattern)
           and (current_setting('role') = 'none'
                or (scoped_tenant_user_search.organization_id::text = current_setting('app.organization_id', true)
                    and scoped_tenant_user_search.environment = current_setting('app.environment', true)))
      $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists scoped_tenant_user_search(uuid, text, uuid, text);`);
  }
}
