import { Migration } from '@mikro-orm/migrations';

const KEY = 'organization_id, environment, tenant_id, code';
const TENANT = 'organization_id, environment, tenant_id';

/**
 * Adds the signed per-key sums of `deltas` (rows of KEY and `delta`) to the counts. Sums of zero are skipped (a
 * device moving from one code to another touches only those two rows). Ordered by key so that two statements
 * writing the same tenant's counts lock its rows in the same order: the second waits instead of deadlocking.
 */
function applyDeltas(deltas: string): string {
  return `insert into device_recommendation_counts as c (${KEY}, devices)
      select ${KEY}, sum(delta)::int from (${deltas}) d group by ${KEY} having sum(delta) <> 0 order by ${KEY}
      on conflict (${KEY}) do update set devices = c.devices + excluded.devices;`;
}

/** One row per code a device of `rows` carries (as the old per-request count unnested them), with `delta`. */
const codesOf = (rows: string, delta: 1 | -1) =>
  `select r.organization_id, r.environment, r.tenant_id, code, ${delta} as delta
     from ${rows}, unnest(r.open_recommendations) as code`;

/** Rows that fell to zero go, so a deleted tenant leaves nothing behind (the table has no foreign key). */
const DROP_ZEROS = `delete from device_recommendation_counts where devices = 0
      and (${TENANT}) in (select distinct ${TENANT} from old_rows);`;

/** Devices of an update whose codes (or tenant) changed: the old row's side `o` or the new row's `n`. */
const changed = (side: 'o' | 'n') => `(select ${side}.* from old_rows o join new_rows n on n.id = o.id
      where (o.organization_id, o.environment, o.tenant_id, o.open_recommendations)
            is distinct from (n.organization_id, n.environment, n.tenant_id, n.open_recommendations)) r`;

/** Counts the devices there already (exported for its test). */
export const BACK_FILL = `insert into device_recommendation_counts (${KEY}, devices)
  select ${KEY}, count(*) from devices, unnest(open_recommendations) as code group by ${KEY};`;

/**
 * Issue #11: the device security recommendations (`GET /api/security/device-security/recommendations`) read a
 * tenant's stored count per recommendation code, at most one row per known code, instead of unnesting every
 * device of the tenant on each request (docs/devices.md "Recommendations"). Kept like the device dashboards'
 * counts (Migration20261217090000_device_dashboard_counts): statement-level triggers on `devices` with
 * transition tables, so every writer (sync, a tenant's deletion cascading to its devices, tests, a future path)
 * keeps them exact, and an update costs nothing unless a device's codes changed. Concurrent writers: each delta
 * is an `insert … on conflict do update set devices = devices + delta`, which adds to the latest committed
 * count under the row's lock, so no increment is lost; rows are written in key order (see applyDeltas).
 * The back-fill runs after the triggers exist, in the migration's transaction: creating a trigger locks
 * `devices` against writes until commit, so no device is counted twice or missed.
 */
export class Migration20261228090000_device_recommendation_counts extends Migration {
  override name = 'Migration20261228090000_device_recommendation_counts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "device_recommendation_counts" ("id" bigserial primary key, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "code" text not null, "devices" int not null);`,
    );
    // The key also serves the read (one tenant, its known codes) and DROP_ZEROS (a tenant's rows).
    this.addSql(
      `alter table "device_recommendation_counts" add constraint "device_recommendation_counts_key" unique (${KEY});`,
    );

    this.addSql(`create or replace function device_recommendation_counts_added() returns trigger
      language plpgsql as $$ begin ${applyDeltas(codesOf('new_rows r', 1))} return null; end $$;`);
    this.addSql(`create or replace function device_recommendation_counts_removed() returns trigger
      language plpgsql as $$ begin ${applyDeltas(codesOf('old_rows r', -1))} ${DROP_ZEROS} return null; end $$;`);
    this.addSql(`create or replace function device_recommendation_counts_changed() returns trigger
      language plpgsql as $$ begin
        ${applyDeltas(`${codesOf(changed('o'), -1)} union all ${codesOf(changed('n'), 1)}`)}
        ${DROP_ZEROS} return null; end $$;`);
    this.addSql(`create trigger "devices_recommendation_counts_insert" after insert on "devices"
      referencing new table as new_rows for each statement execute function device_recommendation_counts_added();`);
    this.addSql(`create trigger "devices_recommendation_counts_update" after update on "devices"
      referencing old table as old_rows new table as new_rows
      for each statement execute function device_recommendation_counts_changed();`);
    this.addSql(`create trigger "devices_recommendation_counts_delete" after delete on "devices"
      referencing old table as old_rows for each statement execute function device_recommendation_counts_removed();`);

    this.addSql(BACK_FILL);
  }

  override down(): void | Promise<void> {
    for (const event of ['insert', 'update', 'delete'])
      this.addSql(`drop trigger if exists "devices_recommendation_counts_${event}" on "devices";`);
    for (const name of ['added', 'removed', 'changed'])
      this.addSql(`drop function if exists device_recommendation_counts_${name}();`);
    this.addSql(`drop table if exists "device_recommendation_counts" cascade;`);
  }
}
