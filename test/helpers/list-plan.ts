import { DEFAULT_APP_DATABASE_ROLE } from '../../src/core/db-session.js';
import type pg from 'pg';
import type { Scope } from '../../src/core/scope.js';
import type { TestServer } from './shared-suite.js';

/**
 * Plan tests for lists (issue #11): a list must read its page through an ordered index and stop after
 * offset + limit rows, whatever the size of the tenant. A window aggregate (`count(*) over ()`) or a sort over
 * every matching row reads the whole tenant for each page, which no functional test notices; these helpers
 * run the statements a request really sent again under `EXPLAIN (ANALYZE, FORMAT JSON)` and check the plans.
 *
 * Usage (see test/rest/list-plans.test.ts):
 *   await multiplyRows(app, 'users', someUserId, 3000);          // a tenant of a few thousand rows
 *   await expectListReadsItsPage(app, () => app.request('GET', `/v1/tenants/${t}/users?limit=25`, { key }),
 *     { limit: 25 });
 */

export interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Sort Method'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  Strategy?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface PageBudget {
  limit: number;
  /** Rows skipped before the page (page - 1) × limit; 0 by default. */
  offset?: number;
  /**
   * The caller's organization and environment: the plans are then taken as the request ran, under the
   * application role and the row-level security policies (see explainAnalyze). Without it, as the service role.
   */
  session?: Scope;
  /** A list that may be empty here (a catalog without stored rows): its plans are still checked. */
  mayBeEmpty?: true;
  /** Tables none of the request's statements may read (a list served by stored counts instead of its rows). */
  untouched?: readonly string[];
  /**
   * Also plan the lean reads as sent (`$n` text, named prepared statements: src/core/lean-statement.ts) under
   * PostgreSQL's generic plan, which a prepared statement may switch to after five executions.
   */
  generic?: true;
}

const SCAN_NODE = /Scan$/;

/** Rows a node looked at: those it returned on every loop plus those its filter threw away. */
function rowsRead(node: PlanNode): number {
  const loops = node['Actual Loops'] || 1;
  return (
    (node['Actual Rows'] +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)) *
    loops
  );
}

/**
 * A plain (not grouped, not windowed) aggregate is the list's total: it may read every matching row, but not
 * the rows of other lists (a sequential scan that filters most rows away) and it never sorts.
 */
function countProblems(node: PlanNode, table: string, problems: string[]): void {
  for (const child of node.Plans ?? []) {
    // A sequential scan is the best way to count a table that holds little else than the list; one that
    // throws away more rows than it counts is reading other lists' rows for want of an index.
    const removed = (child['Rows Removed by Filter'] ?? 0) * (child['Actual Loops'] || 1);
    if (child['Node Type'] === 'Seq Scan' && removed > rowsRead(child) - removed)
      problems.push(
        `the total of ${table} scans ${child['Relation Name']}, reading ${removed} rows of others`,
      );
    if (child['Node Type'] === 'Sort')
      problems.push(`the total of ${table} sorts ${child['Actual Rows']} rows`);
    countProblems(child, table, problems);
  }
}

/** Every problem of one plan against the page budget (an empty list: the plan reads O(limit) rows). */
export function planProblems(root: PlanNode, budget: PageBudget, statement = ''): string[] {
  const allowed = 2 * (budget.limit + (budget.offset ?? 0)) + 10;
  const problems: string[] = [];
  const walk = (node: PlanNode): void => {
    const type = node['Node Type'];
    if (type === 'Aggregate' && node.Strategy === 'Plain') {
      countProblems(node, statement.slice(0, 60), problems);
      return;
    }
    if (type === 'WindowAgg') problems.push(`a window aggregate over ${node['Actual Rows']} rows`);
    if (type === 'Sort' && (node.Plans ?? []).some((child) => child['Actual Rows'] > allowed))
      problems.push(`a sort of ${node.Plans?.[0]?.['Actual Rows']} rows (${node['Sort Method']}) for a page`);
    if (type === 'Aggregate' || type === 'HashAggregate' || type === 'GroupAggregate') {
      // A grouped aggregate beside a page (e.g. per-item counts) must only see the page's rows.
      if ((node.Plans ?? []).some((child) => rowsRead(child) > allowed))
        problems.push(`an aggregate over ${node.Plans?.[0]?.['Actual Rows']} rows for a page`);
    }
    if (node['Relation Name'] && budget.untouched?.includes(node['Relation Name']))
      problems.push(`${type} reads ${node['Relation Name']}, which this list must not read`);
    if (SCAN_NODE.test(type) && rowsRead(node) > allowed)
      problems.push(
        `${type} on ${node['Relation Name'] ?? '?'}${node['Index Name'] ? ` (${node['Index Name']})` : ''} ` +
          `reads ${rowsRead(node)} rows for a page of ${budget.limit} (allowed ${allowed})`,
      );
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root);
  return problems;
}

/** MikroORM logs "[query] <sql with its values> [took N ms, M results]" (maybe with colour codes). */
export function statementOf(message: string): string {
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  return plain
    .replace(/^\s*\[query\]\s*/, '')
    .replace(/\s*\[took [^\]]*\]\s*$/, '')
    .trim();
}

const READ_STATEMENT = /^(select|with)\b/i;

/** A read-only transaction on `client`, as API requests run it when `session` is given (see explainAnalyze). */
async function beginReadOnlyAs(client: pg.PoolClient, session?: Scope): Promise<void> {
  await client.query('begin read only');
  if (session)
    await client.query(
      `select set_config('app.organization_id', $1, true), set_config('app.environment', $2, true),
              set_config('role', $3, true)`,
      [session.organizationId, session.environment, DEFAULT_APP_DATABASE_ROLE],
    );
}

/**
 * Runs `statement` again under EXPLAIN ANALYZE (inside a rolled-back transaction) and returns its plan. With
 * `session`, as API requests run it: the application role under the row-level security policies, with that
 * organization and environment (a policy hides non-leakproof conditions such as LIKE or lower() from indexes,
 * so the service role's plan can look better than the request's).
 */
export async function explainAnalyze(
  app: TestServer,
  statement: string,
  session?: Scope,
  options: { buffers?: boolean } = {},
): Promise<PlanNode> {
  const client = await app.pool.connect();
  try {
    await beginReadOnlyAs(client, session);
    const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, ${options.buffers ? 'buffers, ' : ''}format json) ${statement}`,
    );
    return result.rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('rollback');
    client.release();
  }
}

/**
 * One statement a request sent (`statement`, as logged), planned as the request ran it (application role, the
 * caller's `session`): fails when it scans `table` sequentially or its scans of `table` read more than `maxRows`
 * rows. For single-row lookups (a uniqueness check) rather than pages.
 */
export async function expectStatementReadsFewRows(
  app: TestServer,
  statement: string,
  session: Scope,
  table: string,
  maxRows = 10,
): Promise<PlanNode> {
  const plan = await explainAnalyze(app, statement, session);
  const problems: string[] = [];
  const walk = (node: PlanNode): void => {
    if (SCAN_NODE.test(node['Node Type']) && node['Relation Name'] === table) {
      if (node['Node Type'] === 'Seq Scan') problems.push(`a sequential scan of ${table}`);
      else if (rowsRead(node) > maxRows)
        problems.push(
          `${node['Node Type']} on ${table} (${node['Index Name']}) reads ${rowsRead(node)} rows`,
        );
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  expect(problems).toEqual([]);
  return plan;
}

/**
 * Sends the request (after one unmeasured warm-up, which caches the API key), collects the reads it made and
 * fails, naming statement and node, when one of them reads more than O(limit) rows for its page.
 */
export async function expectListReadsItsPage(
  app: TestServer,
  request: () => Promise<{ status: number }>,
  budget: PageBudget,
): Promise<void> {
  expect((await request()).status).toBe(200);
  app.sql.reset();
  expect((await request()).status).toBe(200);
  const reads = app.sql.log.map(statementOf).filter((statement) => READ_STATEMENT.test(statement));
  expect(reads.length).toBeGreaterThan(0);
  const problems: string[] = [];
  let rowsReturned = 0;
  for (const statement of reads) {
    const plan = await explainAnalyze(app, statement, budget.session);
    rowsReturned += plan['Actual Rows'];
    for (const problem of planProblems(plan, budget, statement))
      problems.push(`${problem}\n    in: ${statement.slice(0, 300)}`);
  }
  if (budget.generic) {
    const prepared = app.sql.leanStatements.filter((statement) => statement.named);
    expect(prepared.length).toBeGreaterThan(0);
    for (const statement of prepared) {
      const plan = await explainGenericPlan(app, statement, budget.session);
      for (const problem of planProblems(plan, budget, statement.text))
        problems.push(`${problem}\n    in the generic plan of: ${statement.text.slice(0, 300)}`);
    }
  }
  // A plan over no rows proves nothing (e.g. a session naming the wrong organization sees an empty table).
  if (!budget.mayBeEmpty) expect(rowsReturned).toBeGreaterThan(0);
  expect(problems).toEqual([]);
}

/** A value as an untyped SQL literal (PostgreSQL casts it to the parameter's type), arrays as array literals. */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const element = (item: unknown) =>
    item === null ? 'NULL' : `"${String(item).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const text = Array.isArray(value)
    ? `{${value.map(element).join(',')}}`
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A lean read as sent (`$n` text and its values, recorded by the SQL counter), run under EXPLAIN ANALYZE with
 * PostgreSQL's generic plan forced (`plan_cache_mode`): the plan a named prepared statement may settle on, which
 * knows the values only at execution (limit, offset, tenant). As the request ran it when `session` is given.
 */
export async function explainGenericPlan(
  app: TestServer,
  statement: { text: string; values: readonly unknown[] },
  session?: Scope,
): Promise<PlanNode> {
  const client = await app.pool.connect();
  try {
    await beginReadOnlyAs(client, session);
    await client.query('set local plan_cache_mode = force_generic_plan');
    await client.query(`prepare lean_generic_plan as ${statement.text}`);
    const args = statement.values.map(literalOf).join(', ');
    const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, format json) execute lean_generic_plan${args ? `(${args})` : ''}`,
    );
    return result.rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('rollback');
    // PREPARE is not transactional. Only this one: the pool's other prepared statements (the rate limiter's) stay.
    await client.query('deallocate lean_generic_plan').catch(() => undefined);
    client.release();
  }
}

/**
 * Copies one row `copies` times (new ids, older created_at; text/uuid columns of unique indexes made unique,
 * references kept: a row unique per parent, e.g. one delivery per event, needs its own SQL),
 * then ANALYZEs the table so the planner sees the new size: a few thousand rows in a second, for any table.
 */
export async function multiplyRows(
  app: TestServer,
  table: string,
  templateId: string,
  copies: number,
  keep: string[] = ['organization_id', 'environment', 'tenant_id'],
  /**
   * Columns whose copies are an SQL expression of the template's columns and `copy` (1..copies) instead: a spread
   * written with the rows rather than by an UPDATE afterwards, which would write every copy and its index entries
   * a second time.
   */
  set: Record<string, string> = {},
): Promise<void> {
  const columns = await app.pool.query<{ name: string; type: string }>(
    `select column_name as name, data_type as type from information_schema.columns
      where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  const uniqueIndexes = await app.pool.query<{ definition: string }>(
    `select pg_get_indexdef(indexrelid) as definition from pg_index
      where indrelid = $1::regclass and indisunique and not indisprimary`,
    [`public.${table}`],
  );
  const foreignKeys = await app.pool.query<{ name: string }>(
    `select a.attname as name from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.conrelid = $1::regclass and c.contype = 'f'`,
    [`public.${table}`],
  );
  // A unique index on a generated column (users_active_upn_unique on the folded UPN) binds its source columns.
  const generated = await app.pool.query<{ name: string; expression: string }>(
    `select column_name as name, generation_expression as expression from information_schema.columns
      where table_schema = 'public' and table_name = $1 and is_generated = 'ALWAYS'`,
    [table],
  );
  const references = new Set(foreignKeys.rows.map(({ name }) => name));
  const named = (name: string, text: string) => new RegExp(`\\b${name}\\b`).test(text);
  const inUniqueIndex = (name: string) =>
    uniqueIndexes.rows.some(
      ({ definition }) =>
        named(name, definition) ||
        generated.rows.some((column) => named(column.name, definition) && named(name, column.expression)),
    );
  const expressions = columns.rows.map(({ name, type }) => {
    const column = `"${name}"`;
    if (name in set) return set[name];
    if (name === 'id') return 'gen_random_uuid()';
    if (name === 'created_at') return `${column} - copy * interval '1 second'`;
    if (keep.includes(name) || references.has(name) || !inUniqueIndex(name)) return column;
    if (type === 'uuid') return 'gen_random_uuid()';
    if (type === 'text' || type === 'character varying') return `copy || '-' || ${column}`;
    return column;
  });
  await app.pool.query(
    `insert into "${table}" (${columns.rows.map(({ name }) => `"${name}"`).join(', ')})
     select ${expressions.join(', ')} from "${table}", generate_series(1, $2::int) as copy where id = $1`,
    [templateId, copies],
  );
  await app.pool.query(`analyze "${table}"`);
}

/**
 * The plan test of one list route at pages 1 and 3 of `limit` (the shape of every test/rest/list-plans*.test.ts):
 * `path` may carry its own query (filters, sort); page and limit are added.
 */
export async function expectPagesReadTheirRows(
  app: TestServer,
  path: string,
  /** Without `scope`, the plans are the service role's (see PageBudget.session). */
  caller: { key: string; scope?: Scope },
  limit = 25,
  pages: readonly number[] = [1, 3],
  /** Also the generic plans of its lean reads (PageBudget.generic). */
  generic?: true,
): Promise<void> {
  for (const page of pages) {
    const paged = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`;
    await expectListReadsItsPage(app, () => app.request('GET', paged, { key: caller.key }), {
      limit,
      offset: (page - 1) * limit,
      session: caller.scope,
      ...(generic ? { generic } : {}),
    });
  }
}

/**
 * For a list whose page comes from the cloud rather than our tables (no plan of ours to check): `read(limit)`
 * sends the request (and checks its status); the statements it costs must be the same at limit 5 and 100.
 */
export async function expectStatementsConstantInLimit(
  app: TestServer,
  read: (limit: number) => Promise<void>,
): Promise<void> {
  await read(5); // warm-up: caches the key
  const small = await app.sql.during(() => read(5));
  const large = await app.sql.during(() => read(100));
  expect(small).toBeGreaterThan(0);
  expect(large).toBe(small);
}
