/**
 * `npm run -s build && node_modules/.bin/node dist/bench/pg-statements.js`: what PostgreSQL does for one request
 * (docs/benchmarks.md "ninth round, PostgreSQL per request"). On a fresh bench database (`BENCH_*` sizes apply;
 * use other `BENCH_DATA_DIR` / `BENCH_PG_PORT` than a running bench) with pg_stat_statements loaded:
 *
 * 1. The users page statement as a lean read sends it (text and values, from the ORM's `[lean-statement]` log of
 *    the users service's own call), under `plan_cache_mode = force_custom_plan` and `force_generic_plan`:
 *    `EXPLAIN (ANALYZE, BUFFERS)` of each, then one backend's CPU per execution (`/proc/<pid>/schedstat`,
 *    nanoseconds) over `BENCH_PG_EXECUTIONS` executions (300), as the application role with a request's
 *    row-level security settings, `BENCH_PG_PASSES` passes (2) taking turns.
 * 2. Every statement PostgreSQL ran for a pass of REST, of GraphQL (this build's server) and of PostGraphile 5
 *    (`BENCH_DURATION` seconds each at `BENCH_CONNECTIONS`): calls, execution and planning time, shared buffers hit
 *    and WAL bytes, per request of the pass.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_APP_DATABASE_ROLE } from '../src/core/db-session.js';
import type { ServiceContext } from '../src/core/service-context.js';
import { UserService } from '../src/users/user.service.js';
import { freePort, startChild, type ChildServer } from './children.js';
import { loadBenchConfig, productNodeFlags, productServerEnv } from './config.js';
import { openBenchDatabase, type BenchDatabase } from './database.js';
import { postgresCpuMs } from './ab-timeline.js';
import autocannon from 'autocannon';
import type { LoadTarget } from './load.js';
import { postgraphileBody, startPostGraphile } from './postgraphile-target.js';
import { scaleData } from './scale-data.js';
import { GRAPHQL_USERS_DOCUMENT, graphqlUsersBody, itemFieldsOf, restUsersPath } from './targets.js';

const DIST = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const startedAt = Date.now();
const log = (message: string) =>
  console.log(`[pg ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);
const config = loadBenchConfig();
const EXECUTIONS = Number(process.env.BENCH_PG_EXECUTIONS ?? 300);
const PASSES = Number(process.env.BENCH_PG_PASSES ?? 2);

interface SentStatement {
  text: string;
  values: unknown[];
  named: boolean;
}
const sent: SentStatement[] = [];
const onQuery = (message: string): void => {
  const at = message.indexOf('[lean-statement] ');
  if (at !== -1) sent.push(JSON.parse(message.slice(at + '[lean-statement] '.length)) as SentStatement);
};

/** The bench database with pg_stat_statements loaded (set in postgresql.auto.conf, the cluster restarted once). */
async function openWithStatements(): Promise<BenchDatabase> {
  const database = await openBenchDatabase(config, { onQuery, log });
  const { rows } = await database.pool.query<{ libraries: string }>(
    `select current_setting('shared_preload_libraries') as libraries`,
  );
  if (rows[0].libraries.includes('pg_stat_statements')) return database;
  if (config.databaseUrl) throw new Error('load pg_stat_statements in BENCH_DATABASE_URL’s server first');
  await database.pool.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
  await database.pool.query(`alter system set pg_stat_statements.track_planning = on`);
  log('pg_stat_statements loaded: restarting the bench cluster');
  await database.close();
  return openBenchDatabase(config, { onQuery, log });
}

/** CPU time of a process so far in ns (schedstat's first field: time on a CPU). */
function cpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** A literal PostgreSQL reads back as `value` (for EXECUTE under EXPLAIN). */
function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `array[${value.map(literal).join(', ')}]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

const database = await openWithStatements();
const children: ChildServer[] = [];
try {
  const data = await scaleData(config, database.orm, database.pool, log);
  await database.pool.query('create extension if not exists pg_stat_statements');
  const fields = itemFieldsOf(GRAPHQL_USERS_DOCUMENT);

  // 1. The users page as the users service sends it (the REST route and the GraphQL query ask these fields).
  const em = database.orm.em.fork();
  const service = new UserService({ em, scope: data.scope } as unknown as ServiceContext);
  await service.listWithLicenses(data.hotTenantId, { page: 1, limit: config.pageSize }, new Set(fields));
  const page = sent.find((statement) => statement.named && statement.text.includes('lean_page'));
  if (!page) throw new Error('the users page statement was not logged');
  log(`users page (${page.values.length} values): ${page.text}`);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      `select set_config('app.organization_id', $1, false), set_config('app.environment', $2, false),
              set_config('role', $3, false)`,
      [data.scope.organizationId, data.scope.environment, DEFAULT_APP_DATABASE_ROLE],
    );
    const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    await client.query(`prepare users_page as ${page.text}`);
    const execute = `execute users_page(${page.values.map(literal).join(', ')})`;
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await client.query(`set plan_cache_mode = ${mode}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${execute}`);
      console.log(`\n--- ${mode}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
    }
    // The product's own way: the named statement through pg's extended protocol, values bound.
    for (let pass = 1; pass <= PASSES; pass++)
      for (const mode of ['force_custom_plan', 'force_generic_plan', 'auto']) {
        await client.query(`set plan_cache_mode = ${mode}`);
        const name = `users_page_${mode}_${pass}`;
        for (let warm = 0; warm < 20; warm++)
          await client.query({ name, text: page.text, values: page.values });
        const before = cpuNs(backend);
        const wallBefore = performance.now();
        for (let run = 0; run < EXECUTIONS; run++)
          await client.query({ name, text: page.text, values: page.values });
        const perExecution = (cpuNs(backend) - before) / EXECUTIONS / 1e6;
        const wall = (performance.now() - wallBefore) / EXECUTIONS;
        log(
          `pass ${pass} ${mode.padEnd(18)} backend CPU ${perExecution.toFixed(3)} ms/execution, ` +
            `round trip ${wall.toFixed(3)} ms (${EXECUTIONS} executions)`,
        );
      }
  } finally {
    await client.end();
  }

  // 2. Every statement of a pass, per request.
  const product = await startProduct();
  const auth = { authorization: `Bearer ${data.apiKey}` };
  const targets: Array<[LoadTarget, ChildServer]> = [
    [
      {
        name: 'rest',
        url: product.baseUrl + restUsersPath(data.hotTenantId, config.pageSize),
        method: 'GET',
        headers: auth,
      },
      product,
    ],
    [
      {
        name: 'graphql',
        url: `${product.baseUrl}/graphql`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: graphqlUsersBody(data.hotTenantId, config.pageSize),
      },
      product,
    ],
  ];
  const postgraphile = await startPostGraphile(database.url, log);
  if ('skipped' in postgraphile) log(`PostGraphile 5 not measured: ${postgraphile.skipped}`);
  else {
    children.push(postgraphile.server);
    targets.push([
      {
        name: 'postgraphile 5',
        url: `${postgraphile.server.baseUrl}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: postgraphileBody(data.scope, data.hotTenantId, config.pageSize, fields),
      },
      postgraphile.server,
    ]);
  }
  const load = (target: LoadTarget, duration: number) =>
    autocannon({ ...target, connections: config.connections, duration });
  for (const [target] of targets) await load(target, config.primeSeconds || 3);
  for (const [target] of targets) {
    // Reset right before the pass (no warm-up pass in between): the statements are those of its requests.
    await database.pool.query('select pg_stat_statements_reset()');
    const cpuBefore = postgresCpuMs(config.dataDir);
    const result = await load(target, config.durationSeconds);
    const cpuAfter = postgresCpuMs(config.dataDir);
    const { rows } = await database.pool.query<{
      query: string;
      calls: string;
      exec_ms: number;
      plan_ms: number;
      plans: string;
      hit: string;
      read: string;
      wal: string;
      wal_records: string;
    }>(
      `select query, calls, total_exec_time as exec_ms, total_plan_time as plan_ms, plans,
              shared_blks_hit as hit, shared_blks_read as read, wal_bytes as wal, wal_records
         from pg_stat_statements join pg_database on pg_database.oid = dbid
        where datname = current_database() and calls > 0 and query not like '%pg_stat_statements%'
        order by total_exec_time + total_plan_time desc`,
    );
    const requests = result.requests.total;
    console.log(
      `\n--- ${target.name}: ${requests} requests (${Math.round(result.requests.average)} req/s, ${result.non2xx + result.errors} failed); per request:` +
        `\n calls/req  exec ms/call  plan ms/call  plans/call  hit/call  read/call  WAL B/call  statement`,
    );
    let execPerRequest = 0;
    for (const row of rows) {
      const calls = Number(row.calls);
      execPerRequest += (row.exec_ms + row.plan_ms) / requests;
      console.log(
        `${(calls / requests).toFixed(3).padStart(10)} ${(row.exec_ms / calls).toFixed(4).padStart(13)} ` +
          `${(row.plan_ms / calls).toFixed(4).padStart(13)} ${(Number(row.plans) / calls).toFixed(2).padStart(11)} ` +
          `${(Number(row.hit) / calls).toFixed(1).padStart(9)} ${(Number(row.read) / calls).toFixed(1).padStart(10)} ` +
          `${(Number(row.wal) / calls).toFixed(0).padStart(11)}  ${row.query.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
    }
    console.log(
      `  statements' execution + planning time per request: ${execPerRequest.toFixed(3)} ms; ` +
        `PostgreSQL's CPU per request (every process of the cluster): ${((cpuAfter - cpuBefore) / requests).toFixed(3)} ms`,
    );
  }
} finally {
  await Promise.allSettled(children.map((child) => child.stop()));
  await database.close();
}

async function startProduct(): Promise<ChildServer> {
  const port = await freePort();
  const child = await startChild({
    name: 'product',
    script: path.join(DIST, 'src', 'main.js'),
    port,
    env: productServerEnv(database.url, port),
    nodeArgs: productNodeFlags(),
    readyPath: '/health/ready',
  });
  children.push(child);
  return child;
}
