import { Migration } from '@mikro-orm/migrations';

/**
 * The cross-tenant user search under row-level security. A policy's condition is a security barrier: PostgreSQL
 * evaluates a condition that is not leakproof (LIKE, lower(), the search key's functions) only on rows the policy
 * already let through, so it can no longer be an index condition. The search then read every user of the
 * organization (at 1,000,000 users, no answer within autocannon's timeout). This function is owned by the service
 * role (which bypasses the policies), so its LIKE is served by the trigram index `users_directory_search_trgm`;
 * it applies the policy's own condition itself: an application-role caller gets rows only for the organization and
 * environment its connection's settings name, whatever it passes; the service role (role "none": jobs, or
 * requests with ROW_LEVEL_SECURITY=off) gets the organization it names, as it could read anyway. It returns the
 * folded display name too: the caller orders its page by that column, which no index of users provides, so the
 * planner looks the matches up by primary key and sorts them (ordering by the users_directory_order index
 * instead read the organization's users in name order, probing each, for a rare name nearly all of them). The
 * estimate of 100 matches (a person's name: tens to a few thousand) keeps the lookup by primary key rather than a
 * hash join over every user of the organization.
 */
export class Migration20261219090000_scoped_user_search extends Migration {
  override name = 'Migration20261219090000_scoped_user_search';

  override up(): void | Promise<void> {
    this
      .addSql(`create or replace function scoped_user_search(organization_id uuid, environment text, term text)
      returns table (id uuid, sort_name text)
      language sql stable security definer set search_path = public, pg_temp rows 100
      as $$
        select u.id, public.user_search_fold(u.display_name) from public.users u
         where u.organization_id = scoped_user_search.organization_id
           and u.environment = scoped_user_search.environment
           and u.deleted_at is null
           and public.user_search_key(u.display_name, u.user_principal_name, u.email)
               like '%' || public.user_search_fold(term) || '%'
           and (current_setting('role') = 'none'
                or (scoped_user_search.organization_id::text = current_setting('app.organization_id', true)
                    and scoped_user_search.environment = current_setting('app.environment', true)))
      $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists scoped_user_search(uuid, text, text);`);
  }
}
