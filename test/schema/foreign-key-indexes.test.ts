import pg from 'pg';
import { createTestDatabase } from '../helpers/test-database.js';

/**
 * Deleting a row checks every foreign key that points at it (and runs its ON DELETE action) with a query on
 * the referencing columns: one that cannot use an index reads the whole referencing table — one purged user
 * scanned every device of every organization. So the lookup each foreign key makes must be able to use an
 * index (PostgreSQL 18 may skip-scan the (organization_id, environment, tenant_id, …) indexes for tenant_id).
 * Checked from the plans themselves, with sequential scans disabled, so no index shape is assumed.
 */
interface ForeignKey {
  constraint: string;
  table: string;
  columns: string[];
}

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

const nodeTypes = (node: PlanNode): string[] => [node['Node Type'], ...(node.Plans ?? []).flatMap(nodeTypes)];

describe('foreign keys', () => {
  it('each find their referencing rows through an index', async () => {
    const client = new pg.Client({ connectionString: await createTestDatabase() });
    await client.connect();
    try {
      const { rows: keys } = await client.query<ForeignKey>(
        `select c.conname as constraint, c.conrelid::regclass::text as table,
                array(select quote_ident(a.attname) from unnest(c.conkey) with ordinality k(attnum, n)
                        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
                       order by k.n) as columns
           from pg_constraint c
          where c.contype = 'f' and c.connamespace = 'public'::regnamespace
          order by 1`,
      );
      expect(keys.length).toBeGreaterThan(20);
      await client.query('set enable_seqscan = off');
      const scanned: string[] = [];
      for (const key of keys) {
        const where = key.columns.map((column, i) => `${column} = $${i + 1}`).join(' and ');
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `explain (generic_plan, format json) select 1 from ${key.table} where ${where}`,
        );
        if (nodeTypes(rows[0]['QUERY PLAN'][0].Plan).includes('Seq Scan')) scanned.push(key.constraint);
      }
      expect(scanned).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
