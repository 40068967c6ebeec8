import { Migration } from '@mikro-orm/migrations';

const KEY = 'organization_id, environment, tenant_id, os_platform, ownership, compliance_state';

/** Adds `sign * count` per key of `source` (a transition table, or a query over both) to the counts. */
function applyDelta(source: string, sign: '+' | '-'): string {
  return `insert into device_dashboard_counts as c (${KEY}, devices)
      select ${KEY}, ${sign}count(*) from ${source} group by ${KEY}
      on conflict (${KEY}) do update set devices = c.devices + excluded.devices;`;
}

/** Rows that fell to zero go, so a deleted tenant leaves nothing behind (the table has no foreign key). */
const DROP_ZEROS = `delete from device_dashboard_counts where devices = 0
      and tenant_id in (select distinct tenant_id from old_rows);`;

/**
 * Issue #15: the device dashboards read per-tenant counts by platform, ownership and compliance state instead of
 * counting up to 500,000 devices per request (docs/devices.md "Dashboards"). Statement-level triggers keep them
 * from the transition tables, so every writer of `devices` (sync, tests, a future path) keeps them exact. An
 * update moves a device between keys only when one of the four columns changed (a sync rewriting last-seen times
 * changes nothing). Writers of the same tenant's devices wait on the same rows; devices are written by that
 * tenant's sync, which runs one at a time.
 */
export class Migration20261217090000_device_dashboard_counts extends Migration {
  override name = 'Migration20261217090000_device_dashboard_counts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "device_dashboard_counts" ("id" bigserial primary key, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "os_platform" text not null, "ownership" text not null, "compliance_state" text not null, "devices" int not null);`,
    );
    this.addSql(
      `create index "device_dashboard_counts_tenant_id_index" on "device_dashboard_counts" ("tenant_id");`,
    );
    this.addSql(
      `alter table "device_dashboard_counts" add constraint "device_dashboard_counts_key" unique (${KEY});`,
    );

    this.addSql(`create or replace function device_counts_added() returns trigger language plpgsql as $$
      begin ${applyDelta('new_rows', '+')} return null; end $$;`);
    this.addSql(`create or replace function device_counts_removed() returns trigger language plpgsql as $$
      begin ${applyDelta('old_rows', '-')} ${DROP_ZEROS} return null; end $$;`);
    const moved = (side: 'o' | 'n') => `(select ${side}.* from old_rows o join new_rows n on n.id = o.id
          where (o.tenant_id, o.os_platform, o.ownership, o.compliance_state)
                is distinct from (n.tenant_id, n.os_platform, n.ownership, n.compliance_state)) moved`;
    this.addSql(`create or replace function device_counts_changed() returns trigger language plpgsql as $$
      begin ${applyDelta(moved('o'), '-')} ${applyDelta(moved('n'), '+')} ${DROP_ZEROS} return null; end $$;`);
    this.addSql(`create trigger "devices_dashboard_counts_insert" after insert on "devices"
      referencing new table as new_rows for each statement execute function device_counts_added();`);
    this.addSql(`create trigger "devices_dashboard_counts_update" after update on "devices"
      referencing old table as old_rows new table as new_rows for each statement execute function device_counts_changed();`);
    this.addSql(`create trigger "devices_dashboard_counts_delete" after delete on "devices"
      referencing old table as old_rows for each statement execute function device_counts_removed();`);

    this.addSql(
      `create index "devices_enrollment_index" on "devices" ("organization_id", "environment", "enrolled_at", "tenant_id", "os_platform", "compliance_state", "ownership");`,
    );

    // The devices there already.
    this.addSql(`insert into device_dashboard_counts (${KEY}, devices)
      select ${KEY}, count(*) from devices group by ${KEY};`);
  }

  override down(): void | Promise<void> {
    for (const event of ['insert', 'update', 'delete'])
      this.addSql(`drop trigger if exists "devices_dashboard_counts_${event}" on "devices";`);
    for (const name of ['added', 'removed', 'changed'])
      this.addSql(`drop function if exists device_counts_${name}();`);
    this.addSql(`drop table if exists "device_dashboard_counts" cascade;`);
    this.addSql(`drop index if exists "devices_enrollment_index";`);
  }
}
