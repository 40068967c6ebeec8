import { Migration } from '@mikro-orm/migrations';

/**
 * A connector run's `error_count` counted the source's error messages, not the items that failed: one
 * "3 item(s) from source identities no mapping matched were skipped" counted 1. Stored runs get the item
 * count their messages state (the only message the sources have written so far), and each connector's
 * total moves by the same difference, so the run, the connector and the status/history statistics agree.
 * Runs whose messages state no count keep what they have. Down counts messages again.
 */
const STATED_ITEMS = `sum((m[1])::int)::int`;
const MESSAGES = `cardinality(r2.errors)`;

function recount(items: string): string {
  return `with fixed as (
      update "compliance_connector_runs" r set "error_count" = f.items
        from (select r2.id, r2.error_count as old, ${items} as items
                from "compliance_connector_runs" r2, unnest(r2.errors) e, regexp_match(e, '^(\\d+) item\\(s\\) ') m
               where r2.status = 'Succeeded' group by r2.id, r2.error_count) f
       where r.id = f.id and r.error_count <> f.items
      returning r.connector_id, f.items - f.old as delta)
    update "compliance_connectors" c set "error_count" = c.error_count + d.delta
      from (select connector_id, sum(delta)::int as delta from fixed group by connector_id) d
     where c.id = d.connector_id;`;
}

/** The up statement (exported for test/compliance, which runs it over rows written the old way). */
export const RECOUNT_FAILED_ITEMS = recount(STATED_ITEMS);

export class Migration20261230150000_connector_failed_items extends Migration {
  override name = 'Migration20261230150000_connector_failed_items';

  override up(): void | Promise<void> {
    this.addSql(RECOUNT_FAILED_ITEMS);
  }

  override down(): void | Promise<void> {
    this.addSql(recount(MESSAGES));
  }
}
