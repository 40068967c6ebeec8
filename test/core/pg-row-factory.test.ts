import pg from 'pg';
import { buildPgRowsWithFactories, parseUuidArray } from '../../src/core/perf/pg-row-factory.js';

/**
 * pg's rows built by the generated factories (src/core/perf/pg-row-factory.ts) are the rows pg builds itself:
 * the same statements are run before the factories are installed (pg's own code) and after, and compared value
 * by value and key order by key order.
 */
const STATEMENTS: Array<string | pg.QueryConfig | pg.QueryArrayConfig> = [
  `select 1::int as int4, 9007199254740993::int8 as int8, 'x'::text as text, null::text as nothing, true as bool,
     '2026-02-28 23:59:59.125+00'::timestamptz as instant, '2026-02-28 12:00'::timestamp as local,
     '2026-02-28'::date as day, '{"k": [1, "two"]}'::jsonb as document, '{"k": 1}'::json as json,
     array['a', 'b,c', null, '"q"']::text[] as texts, 1.50::numeric as amount, '1 day 02:00'::interval as span,
     array[1, 2]::int[] as ints, 'e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1'::uuid as id`,
  `select array['e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1', null, '0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e']::uuid[] as ids,
     '{}'::uuid[] as none, null::uuid[] as absent,
     '{{e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1},{0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e}}'::uuid[] as nested,
     '[0:1]={e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1,0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e}'::uuid[] as bounded`,
  // A repeated name keeps its first position and its last value.
  'select 1 as x, 2 as y, 3 as x',
  // Names that need quoting in generated code, an integer-like one, and one the factory leaves to pg.
  `select 1 as "we""ird\\name", 2 as "1", 3 as "a b", 4 as "constructor"`,
  'select 1 as "__proto__", 2 as a',
  // Same first and last names, other columns between: two column sets.
  'select 1 as a, 2::int as mid, 3 as b',
  "select 1 as a, 'two'::text as mid, 3 as b",
  "select 1 as a, 'two'::text as middle, 3 as b",
  // Several rows, several statements in one simple query, no row, no column.
  'select n, n * 2 as twice from generate_series(1, 3) n',
  'select 1 as a; select 2 as b, 3 as c',
  'select 1 as a where false',
  'select',
  { text: 'select $1::int as a, $2::text as b', values: [7, 'seven'] },
  { text: 'select 1 as a, 2 as b', rowMode: 'array' },
];

interface Answer {
  rows: unknown;
  keys: string[][];
}

async function runAll(client: pg.Client): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const statement of STATEMENTS) {
    const result = (await client.query(statement as string)) as pg.QueryResult | pg.QueryResult[];
    for (const one of Array.isArray(result) ? result : [result])
      answers.push({
        rows: one.rows,
        keys: one.rows.map((row: object) => Object.keys(row)),
      });
  }
  return answers;
}

describe('pg rows built by generated factories', () => {
  let pgOwn: Answer[];
  let pgOwnWithOverrides: Answer[];
  const overrides = () => {
    // A client's own parsers (as MikroORM sets them): timestamps stay text, int8 as a number.
    return {
      getTypeParser: (oid: number, format?: string) =>
        oid === 1184 || oid === 1114
          ? (text: string) => `text:${text}`
          : oid === 20
            ? (text: string) => Number(text)
            : pg.types.getTypeParser(oid, format as 'text'),
    };
  };
  const client = (types?: ReturnType<typeof overrides>) =>
    new pg.Client({
      connectionString: process.env.TEST_DATABASE_ADMIN_URL,
      types: types as pg.CustomTypesConfig,
    });

  beforeAll(async () => {
    for (const [types, keep] of [
      [undefined, (answers: Answer[]) => (pgOwn = answers)],
      [overrides(), (answers: Answer[]) => (pgOwnWithOverrides = answers)],
    ] as const) {
      const connection = client(types);
      await connection.connect();
      try {
        keep(await runAll(connection));
      } finally {
        await connection.end();
      }
    }
    buildPgRowsWithFactories();
  });

  it('are the rows pg builds, with the default parsers and with a client’s own', async () => {
    for (const [types, expected] of [
      [undefined, pgOwn],
      [overrides(), pgOwnWithOverrides],
    ] as const) {
      const connection = client(types);
      await connection.connect();
      try {
        // Twice: the first run generates the factories, the second takes them from the cache.
        expect(await runAll(connection)).toEqual(expected);
        expect(await runAll(connection)).toEqual(expected);
      } finally {
        await connection.end();
      }
    }
    expect(pgOwn[2]).toEqual({ rows: [{ x: 3, y: 2 }], keys: [['x', 'y']] });
    expect(pgOwnWithOverrides[0].rows).toEqual([
      expect.objectContaining({ instant: 'text:2026-02-28 23:59:59.125+00', int8: 9007199254740992 }),
    ]);
  });

  it('split a one-dimensional uuid array as postgres-array does, and leave the other forms to it', () => {
    const stringArray = pg.types.getTypeParser(
      2951 as Parameters<typeof pg.types.getTypeParser>[0],
      'text',
    ) as (text: string) => unknown;
    for (const text of [
      '{}',
      '{NULL}',
      '{e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1}',
      '{e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1,NULL,0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e}',
      '{{e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1},{0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e}}',
      '[0:1]={e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1,0b6f7d2e-4f5d-4c33-8d6e-1f2a3b4c5d6e}',
      '{"e5b5c6f0-8e43-4a59-9c47-0d3ad6c7a9a1","NULL"}',
    ])
      expect({ text, parsed: parseUuidArray(text) }).toEqual({ text, parsed: stringArray(text) });
  });
});
