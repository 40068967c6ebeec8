import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11 item 5, the cross-tenant user search at 1,000,000 users: the folded search key and the folded display
 * name become stored generated columns (computed by the same IMMUTABLE functions), so neither the trigram
 * index's recheck of each candidate row nor the sort of the matches calls `unaccent` again: at 2,500 matches of a
 * common name those calls were most of the request's time (docs/user-directory.md "Index"). The trigram index
 * moves onto the column under its old name; `users_directory_order` goes (no plan uses it: ordering by it made
 * a rare name walk the organization's users). `scoped_user_search` keeps its arguments and its guarantee (it
 * applies the policy's condition itself), reads the columns and returns what a page shows. Adding the columns
 * rewrites the table once.
 */
// The result columns change, which `create or replace` cannot do.
const DROP_SEARCH_FUNCTION = `drop function if exists scoped_user_search(uuid, text, text);`;

export class Migration20261226090000_user_search_columns extends Migration {
  override name = 'Migration20261226090000_user_search_columns';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users"
         add column "directory_search_key" text generated always as (user_search_key(display_name, user_principal_name, email)) stored,
         add column "directory_sort_name" text generated always as (user_search_fold(display_name)) stored;`,
    );
    this.addSql(`drop index if exists "users_directory_search_trgm";`);
    this.addSql(`drop index if exists "users_directory_order";`);
    this.addSql(
      `create index "users_directory_search_trgm" on "users" using gin ("directory_search_key" gin_trgm_ops) where "deleted_at" is null;`,
    );
    this.addSql(DROP_SEARCH_FUNCTION);
    this.addSql(SEARCH_FUNCTION);
  }

  override down(): void | Promise<void> {
    this.addSql(DROP_SEARCH_FUNCTION);
    this.addSql(PREVIOUS_SEARCH_FUNCTION);
    this.addSql(`drop index if exists "users_directory_search_trgm";`);
    this.addSql(`alter table "users" drop column "directory_search_key", drop column "directory_sort_name";`);
    this.addSql(
      `create index "users_directory_search_trgm" on "users" using gin (user_search_key("display_name", "user_principal_name", "email") gin_trgm_ops) where "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_directory_order" on "users" ("organization_id", "environment", user_search_fold("display_name"), "id") where "deleted_at" is null;`,
    );
  }
}

/**
 * Migration20261219090000's function on the stored columns, with the same policy condition. It returns the
 * columns a page shows too: the caller then sorts the matches and joins tenants, instead of looking every
 * match of a common name up again by primary key (2,500 index probes per page at the bench's "zoe muller").
 * `plan_cache_mode = force_custom_plan`: PostgreSQL caches a SQL function's plans per connection and, after
 * five calls, may switch to a generic plan, whose pattern `'%' || user_search_fold(term) || '%'` is then
 * evaluated for every row the index's recheck reads (an unaccent call per candidate, seen with auto_explain at
 * the bench: 20 ms more per request); a custom plan folds the term once, into the pattern the index searches.
 */
const SEARCH_FUNCTION = `create function scoped_user_search(organization_id uuid, environment text, term text)
  returns table (id uuid, sort_name text, tenant_id uuid, display_name text, user_principal_name text,
                 email text, account_status text, user_type text)
  language sql stable security definer set search_path = public, pg_temp
  set plan_cache_mode = force_custom_plan rows 100
  as $$
    select u.id, u.directory_sort_name, u.tenant_id, u.display_name::text, u.user_principal_name::text,
           u.email::text, u.account_status::text, u.user_type::text
      from public.users u
     where u.organization_id = scoped_user_search.organization_id
       and u.environment = scoped_user_search.environment
       and u.deleted_at is null
       and u.directory_search_key like '%' || public.user_search_fold(term) || '%'
       and (current_setting('role') = 'none'
            or (scoped_user_search.organization_id::text = current_setting('app.organization_id', true)
                and scoped_user_search.environment = current_setting('app.environment', true)))
  $$;`;

/** Migration20261219090000's function, for down(). */
const PREVIOUS_SEARCH_FUNCTION = `create function scoped_user_search(organization_id uuid, environment text, term text)
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
  $$;`;
