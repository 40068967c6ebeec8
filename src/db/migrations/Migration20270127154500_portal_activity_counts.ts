import { Migration } from '@mikro-orm/migrations';

/** The UTC day (days since 1970-01-01) of a user row's last activity: its last sign-in, else its creation. */
const ACTIVITY_DAY_SQL = (user: string) =>
  `((coalesce(${user}.last_sign_in_at, ${user}.created_at) at time zone 'UTC')::date - date '1970-01-01')`;
const DISABLED_SQL = (user: string) => `(${user}.account_status = 'Disabled')`;
/** How many of a user row's assignments are of a SKU its tenant holds (tenant_licenses). */
const HELD_ASSIGNMENTS_SQL = (user: string) => `(select count(*) from license_assignments held
    join tenant_licenses tl on tl.tenant_id = held.tenant_id and tl.sku_id = held.sku_id
   where held.user_id = ${user}.id and held.tenant_id = ${user}.tenant_id)`;
/** A users row whose counted state changed between o and n. */
const MOVED_SQL = `(o.tenant_id, o.deleted_at is null, o.account_status, coalesce(o.last_sign_in_at, o.created_at))
  is distinct from (n.tenant_id, n.deleted_at is null, n.account_status, coalesce(n.last_sign_in_at, n.created_at))`;

/** The statement-level changes of one table, as its transition tables or an empty set of the same row type. */
function transitions(op: 'insert' | 'update' | 'delete'): { added: string; removed: string } {
  return {
    added: op === 'delete' ? '(select * from old_rows limit 0)' : 'new_rows',
    removed: op === 'insert' ? '(select * from new_rows limit 0)' : 'old_rows',
  };
}

const COUNT_COLUMNS = `(organization_id, environment, tenant_id, sku_id, day, disabled, n)`;

/**
 * The users whose held-license count moved by `change` (a set of user_id, tenant_id, change), one delta per
 * user who went from holding none of the tenant's SKUs to some or back: the held count after the statement is
 * read, the count before is that minus the change. Soft-deleted users count nowhere.
 */
const heldUsersDelta = (changes: string) => `
  insert into portal_activity_counts ${COUNT_COLUMNS}
  select u.organization_id, u.environment, u.tenant_id, null, ${ACTIVITY_DAY_SQL('u')}, ${DISABLED_SQL('u')},
         sum(sign(h.after) - sign(h.after - c.change))::int
    from (select user_id, tenant_id, sum(change)::int as change from ${changes} x
           group by user_id, tenant_id having sum(change) <> 0) c
    join users u on u.id = c.user_id and u.tenant_id = c.tenant_id and u.deleted_at is null
    cross join lateral (select ${HELD_ASSIGNMENTS_SQL('u')} as after) h
   group by 1, 2, 3, 5, 6
  having sum(sign(h.after) - sign(h.after - c.change)) <> 0`;

/** License assignments: +1 per assignment added, -1 per removed, at its user's activity day and status. */
function assignmentsFunction(op: 'insert' | 'update' | 'delete'): string {
  const { added, removed } = transitions(op);
  const sides = `(select user_id, tenant_id, sku_id, 1 as change from ${added}
                  union all select user_id, tenant_id, sku_id, -1 from ${removed})`;
  return `create or replace function portal_activity_assignments_${op}() returns trigger language plpgsql as $$
    begin
      perform portal_activity_lock(array(select tenant_id from ${added} union select tenant_id from ${removed}));
      insert into portal_activity_counts ${COUNT_COLUMNS}
      select u.organization_id, u.environment, u.tenant_id, d.sku_id, ${ACTIVITY_DAY_SQL('u')},
             ${DISABLED_SQL('u')}, sum(d.change)::int
        from ${sides} d
        join users u on u.id = d.user_id and u.tenant_id = d.tenant_id and u.deleted_at is null
           group by 1, 2, 3, 4, 5, 6
      having sum(d.change) <> 0;
      ${heldUsersDelta(`(select d.user_id, d.tenant_id, d.change from ${sides} d
        join tenant_licenses tl on tl.tenant_id = d.tenant_id and tl.sku_id = d.sku_id)`)};
      return null;
    end $$;`;
}

/** Held SKUs added or removed (a seat counter's update changes no pair and costs one empty read). */
function licensesFunction(op: 'insert' | 'update' | 'delete'): string {
  const { added, removed } = transitions(op);
  return `create or replace function portal_activity_licenses_${op}() returns trigger language plpgsql as $$
    declare
      pairs jsonb;
    begin
      select jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'sku_id', sku_id, 'change', change)) into pairs
        from (select tenant_id, sku_id, sum(change)::int as change
                from (select tenant_id, sku_id, 1 as change from ${added}
                      union all select tenant_id, sku_id, -1 from ${removed}) s
               group by tenant_id, sku_id having sum(change) <> 0) p;
      if pairs is null then return null; end if;
      perform portal_activity_lock(array(select (p ->> 'tenant_id')::uuid from jsonb_array_elements(pairs) p));
      ${heldUsersDelta(`(select la.user_id, la.tenant_id, p.change
          from jsonb_to_recordset(pairs) as p(tenant_id uuid, sku_id uuid, change int)
          join license_assignments la on la.tenant_id = p.tenant_id and la.sku_id = p.sku_id)`)};
      return null;
    end $$;`;
}

/** One user's contribution (its assignments, and itself if it holds a held SKU) with the given sign. */
const userContribution = (row: string, sign: string) => `
  select ${row}.organization_id, ${row}.environment, ${row}.tenant_id, la.sku_id, ${ACTIVITY_DAY_SQL(row)},
         ${DISABLED_SQL(row)}, ${sign}
    from license_assignments la where la.user_id = ${row}.id and la.tenant_id = ${row}.tenant_id
  union all
  select ${row}.organization_id, ${row}.environment, ${row}.tenant_id, null, ${ACTIVITY_DAY_SQL(row)},
         ${DISABLED_SQL(row)}, ${sign}
   where ${HELD_ASSIGNMENTS_SQL(row)} > 0`;

/**
 * Issue #31 goal 5: the portal's recount reads per-tenant counts kept by the writes instead of every user and
 * assignment (docs/portal.md "Aggregates"). `portal_activity_counts` holds, per tenant, SKU (null: the users
 * holding one of the tenant's SKUs) and UTC day of last activity (last sign-in, else creation) and disabled flag,
 * how many non-deleted users' assignments (or users) are there. Rows are deltas, only ever inserted by the
 * triggers below in the writer's transaction (the five-minute job folds them), so a figure is the sum of the
 * committed rows. The triggers of one tenant take a transaction-level advisory lock on it, so two writers of the
 * same tenant's users, assignments or held SKUs do not each count from a state the other is changing.
 */
export class Migration20270127154500_portal_activity_counts extends Migration {
  override name = 'Migration20270127154500_portal_activity_counts';

  override up(): void | Promise<void> {
    this
      .addSql(`create table "portal_activity_counts" ("id" bigserial primary key, "organization_id" uuid not null,
      "environment" text not null, "tenant_id" uuid not null, "sku_id" uuid null, "day" int not null,
      "disabled" boolean not null, "n" int not null);`);
    this
      .addSql(`alter table "portal_activity_counts" add constraint "portal_activity_counts_environment_check"
      check ("environment" in ('live', 'sandbox'));`);
    this.addSql(
      `create index "portal_activity_counts_key_index" on "portal_activity_counts" ("tenant_id", "day", "sku_id", "disabled") include ("n");`,
    );
    this.addSql(
      `create index "users_activity_index" on "users" ("tenant_id", (coalesce("last_sign_in_at", "created_at"))) include ("id", "account_status", "last_sign_in_at", "created_at") where "deleted_at" is null;`,
    );
    this.addSql(`drop index if exists "users_recount_index";`);

    this
      .addSql(`create or replace function portal_activity_lock(tenant_ids uuid[]) returns void language plpgsql as $$
      declare
        tenant uuid;
      begin
        for tenant in select distinct t from unnest(tenant_ids) t where t is not null order by t loop
          perform pg_advisory_xact_lock(hashtext('portal_activity_counts'), hashtext(tenant::text));
        end loop;
      end $$;`);
    for (const op of ['insert', 'update', 'delete'] as const) {
      this.addSql(assignmentsFunction(op));
      this.addSql(licensesFunction(op));
      const referencing = {
        insert: 'referencing new table as new_rows',
        update: 'referencing old table as old_rows new table as new_rows',
        delete: 'referencing old table as old_rows',
      }[op];
      this
        .addSql(`create trigger "license_assignments_portal_activity_${op}" after ${op} on "license_assignments"
        ${referencing} for each statement execute function portal_activity_assignments_${op}();`);
      this.addSql(`create trigger "tenant_licenses_portal_activity_${op}" after ${op} on "tenant_licenses"
        ${referencing} for each statement execute function portal_activity_licenses_${op}();`);
    }
    // A user's activity, status, deletion or tenant moved: its old contribution out, its new one in. A new user
    // holds nothing yet (its assignments come after it), so inserts need no trigger.
    this
      .addSql(`create or replace function portal_activity_users_update() returns trigger language plpgsql as $$
      begin
        perform portal_activity_lock(array(
          select unnest(array[o.tenant_id, n.tenant_id]) from old_rows o join new_rows n on n.id = o.id
           where ${MOVED_SQL}));
        insert into portal_activity_counts ${COUNT_COLUMNS}
        select c.organization_id, c.environment, c.tenant_id, c.sku_id, c.day, c.disabled, sum(c.n)::int
          from (select o.*, -1 as side from old_rows o join new_rows n on n.id = o.id where ${MOVED_SQL}
                union all
                select n.*, 1 from old_rows o join new_rows n on n.id = o.id where ${MOVED_SQL}) moved
         cross join lateral (${userContribution('moved', 'moved.side')})
                 c(organization_id, environment, tenant_id, sku_id, day, disabled, n)
         where moved.deleted_at is null
         group by 1, 2, 3, 4, 5, 6
        having sum(c.n) <> 0;
        return null;
      end $$;`);
    this.addSql(`create trigger "users_portal_activity_update" after update on "users"
      referencing old table as old_rows new table as new_rows for each statement execute function portal_activity_users_update();`);
    // A hard delete (a purge) takes the user's contribution out before its assignments go by cascade (after
    // which no statement could find them). A purged user is soft-deleted first and counted nowhere already.
    this
      .addSql(`create or replace function portal_activity_users_delete() returns trigger language plpgsql as $$
      begin
        if old.deleted_at is null then
          perform portal_activity_lock(array[old.tenant_id]);
          insert into portal_activity_counts ${COUNT_COLUMNS}
          select c.organization_id, c.environment, c.tenant_id, c.sku_id, c.day, c.disabled, sum(c.n)::int
            from (${userContribution('old', '-1')}) c(organization_id, environment, tenant_id, sku_id, day, disabled, n)
           group by 1, 2, 3, 4, 5, 6;
        end if;
        return old;
      end $$;`);
    this.addSql(`create trigger "users_portal_activity_delete" before delete on "users"
      for each row execute function portal_activity_users_delete();`);

    // A deleted tenant's counts go with it, after its rows' own triggers ran during the cascade (no foreign key:
    // those triggers' rows would break it, and checking the tenant in each of them costs every write a lookup).
    this
      .addSql(`create or replace function portal_activity_tenants_delete() returns trigger language plpgsql as $$
      begin
        delete from portal_activity_counts where tenant_id in (select id from old_rows);
        return null;
      end $$;`);
    this.addSql(`create trigger "tenants_portal_activity_delete" after delete on "tenants"
      referencing old table as old_rows for each statement execute function portal_activity_tenants_delete();`);

    // What the triggers would have written for the rows already there.
    this.addSql(`insert into portal_activity_counts ${COUNT_COLUMNS}
      select u.organization_id, u.environment, u.tenant_id, la.sku_id, ${ACTIVITY_DAY_SQL('u')}, ${DISABLED_SQL('u')},
             count(*)::int
        from license_assignments la
        join users u on u.id = la.user_id and u.tenant_id = la.tenant_id and u.deleted_at is null
       group by 1, 2, 3, 4, 5, 6;`);
    this.addSql(`insert into portal_activity_counts ${COUNT_COLUMNS}
      select u.organization_id, u.environment, u.tenant_id, null, ${ACTIVITY_DAY_SQL('u')}, ${DISABLED_SQL('u')},
             count(*)::int
        from users u
       where u.deleted_at is null
         and exists (select 1 from license_assignments la
                       join tenant_licenses tl on tl.tenant_id = la.tenant_id and tl.sku_id = la.sku_id
                      where la.user_id = u.id and la.tenant_id = u.tenant_id)
       group by 1, 2, 3, 5, 6;`);
  }

  override down(): void | Promise<void> {
    for (const op of ['insert', 'update', 'delete']) {
      this.addSql(
        `drop trigger if exists "license_assignments_portal_activity_${op}" on "license_assignments";`,
      );
      this.addSql(`drop trigger if exists "tenant_licenses_portal_activity_${op}" on "tenant_licenses";`);
      this.addSql(`drop function if exists portal_activity_assignments_${op}();`);
      this.addSql(`drop function if exists portal_activity_licenses_${op}();`);
    }
    this.addSql(`drop trigger if exists "users_portal_activity_update" on "users";`);
    this.addSql(`drop trigger if exists "users_portal_activity_delete" on "users";`);
    this.addSql(`drop function if exists portal_activity_users_update();`);
    this.addSql(`drop function if exists portal_activity_users_delete();`);
    this.addSql(`drop trigger if exists "tenants_portal_activity_delete" on "tenants";`);
    this.addSql(`drop function if exists portal_activity_tenants_delete();`);
    this.addSql(`drop function if exists portal_activity_lock(uuid[]);`);
    this.addSql(`drop index if exists "users_activity_index";`);
    this.addSql(
      `create index "users_recount_index" on "users" ("tenant_id", "id") include ("account_status", "last_sign_in_at", "created_at") where "deleted_at" is null;`,
    );
    this.addSql(`drop table if exists "portal_activity_counts" cascade;`);
  }
}
