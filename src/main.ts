/**
 * Start-up: configuration, database (embedded or DATABASE_URL), migrations, demo seed,
 * HTTP (REST + GraphQL), background jobs, and a clean stop on SIGINT/SIGTERM.
 */
import 'reflect-metadata';
import type { Runner } from 'graphile-worker';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from './config.js';
import { systemClock } from './core/clock.js';
import { assertPerfTrickVersions } from './core/perf/versions.js';
import { describeListenError, embeddedPostgresPortProblem, portProblem } from './core/port-check.js';
import type { AppDeps } from './core/service-context.js';
import { runningServerUrl } from './db/data-dir-lock.js';
import { chooseSecretBox } from './db/secrets-key.js';
import { verifySecretsKey } from './db/secrets-key-check.js';
import { shutdownInSteps } from './core/shutdown.js';
// Only light modules above: the configuration is read and checked before the ORM, graphile-worker and pg load
// (below), so a wrong setting or a busy port is reported at once instead of after a second of module loading.

/** A start-up the operator can fix (a setting, a busy port): one line saying why, exit 1, no stack trace. */
function refuseToStart(reason: unknown): never {
  process.stderr.write(`Cannot start: ${reason instanceof Error ? reason.message : String(reason)}\n`);
  process.exit(1);
}

function configOrExit(): ReturnType<typeof loadConfig> {
  try {
    return loadConfig();
  } catch (error) {
    refuseToStart(error);
  }
}

const config = configOrExit();
// Code that reads libraries' internals (src/core/perf) runs only on the library versions it was written for.
try {
  assertPerfTrickVersions();
} catch (error) {
  refuseToStart(error);
}
// A busy HTTP port is found before the database starts, not after ten seconds of start-up (issue #33 item 1).
const httpPort = { port: config.port, what: 'HTTP', variable: 'PORT' };
const busyPort = await portProblem(httpPort);
if (busyPort) refuseToStart(busyPort);
// The embedded PostgreSQL's port likewise, before any module of the database loads, when nothing of this data
// folder can be what holds it: no PostgreSQL pid file (one that runs is joined) and no server on the folder (that
// refusal names it). Otherwise prepareDatabase decides, as it did alone before (the same message).
if (
  !config.databaseUrl &&
  !existsSync(path.join(config.dataDir, 'pg', 'postmaster.pid')) &&
  runningServerUrl(config.dataDir) === null
) {
  const busyDatabasePort = await embeddedPostgresPortProblem(config.embeddedPostgresPort);
  if (busyDatabasePort) refuseToStart(busyDatabasePort);
}
// JSON lines for machines; on a terminal (npm start by hand) pino-pretty renders them, so the banner reads as text.
const logger = pino({
  level: config.logLevel,
  transport: process.stdout.isTTY
    ? // The request log's fields (`http`) are in its message already: one line per request on a terminal too.
      { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,http' } }
    : undefined,
});

// The database's start once the configuration holds. prepare.js is light (it loads the ORM only when it opens
// it), so the embedded PostgreSQL starts at once and the ORM loads with the rest below, while PostgreSQL starts.
const { prepareDatabase } = await import('./db/prepare.js');
const databaseReady = prepareDatabase(config, {
  log: (message) => logger.debug(message),
  notice: (message) => logger.warn(message),
  claimDataDir: true,
}).catch((error: unknown) => {
  // A start-up that cannot reach its database says why in one line, not with a stack trace.
  refuseToStart(error);
});
// A refusal prepareDatabase makes at once (another server on the data folder) is reported before the loading
// below: Node resolves and links much of a dynamic import's module graph synchronously (some 0.4 s of CPU here).
await null;
// While PostgreSQL starts and the migrations are checked (another process, and waiting on it), load the rest of
// the server and build the GraphQL schema: about a second of module loading that a restart no longer waits for
// in sequence (docs/performance.md "Cold start").
const [
  { createApp },
  { buildAppSchema },
  { cronItems, taskList },
  { SimulatedCloud },
  demoSeed,
  { OUTBOX_SUBSCRIBERS },
  { startJobRunner },
  { PgListener },
] = await Promise.all([
  import('./app.js'),
  import('./schema.js'),
  import('./tasks.js'),
  import('./cloud/simulated/index.js'),
  import('./db/seeds/demo.js'),
  import('./features.js'),
  import('./core/jobs.js'),
  import('./core/pg-listener.js'),
]);
const phases: Record<string, number> = { modules: performance.now() };
const schema = await buildAppSchema();
phases.schema = performance.now();
const database = await databaseReady;
phases.database = performance.now();
const { DEMO_ORGANIZATION_SLUG, seedDemoIfEmpty } = demoSeed;
const secrets = chooseSecretBox(config);
try {
  await verifySecretsKey(database.pool, secrets, config);
} catch (error) {
  logger.fatal((error as Error).message);
  await database.close();
  process.exit(1);
}
if (secrets.source === 'none')
  logger.warn(
    'SECRETS_KEY is not set: webhook signing secrets are stored unencrypted. Set it (the same value on ' +
      'every instance), e.g. SECRETS_KEY=$(openssl rand -base64 32)',
  );
let ready = false;
const deps: AppDeps = {
  clock: systemClock,
  clouds: new SimulatedCloud(database.orm, systemClock),
  publicUrl: config.publicUrl,
  outboxSubscribers: OUTBOX_SUBSCRIBERS,
  webhooks: { allowPrivateTargets: config.webhookAllowPrivateTargets, secretBox: secrets.box },
  microsoft365: {
    loginUrl: config.microsoftLoginUrl,
    graphUrl: config.microsoftGraphUrl,
    defenderUrl: config.microsoftDefenderUrl,
  },
  liveWithoutConnection: config.liveWithoutConnection,
  restores: { pollMinDelayMs: config.restorePollMinDelayMs },
};

if (config.seedDemo) {
  const seeded = await seedDemoIfEmpty(database.orm, deps);
  if (seeded)
    logger.info(`Seeded the demo organization "${DEMO_ORGANIZATION_SLUG}" with a sandbox of sample data`);
}

const listener = new PgListener(database.url, (message) => logger.warn(message));
await listener.start();
const app = await createApp({
  ...deps,
  orm: database.orm,
  pool: database.pool,
  schema,
  logger,
  maxJsonBodyBytes: config.maxJsonBodyBytes,
  trustProxy: config.trustProxy,
  listener,
  isReady: () => ready,
  httpTimeouts: config.httpTimeouts,
  metricsToken: config.metricsToken,
  graphqlStackTraces: config.graphqlStackTraces,
});

phases.app = performance.now();
let runner: Runner | null = null;
if (config.runWorker) {
  runner = await startJobRunner({
    pgPool: database.pool,
    taskList: taskList(database.orm, deps),
    cronItems,
    concurrency: config.workerConcurrency,
    localQueueSize: config.workerLocalQueueSize,
    staleAfterMs: config.jobStaleAfterMs,
    log: (level, message) =>
      level === 'error'
        ? logger.error(message)
        : level === 'warning'
          ? logger.warn(message)
          : logger.debug(message),
  });
}

// The port was free at the start; another program may have taken it since. Without this handler the
// failed listen was only reported by the WebSocket server, and the process hung.
await new Promise<void>((resolve) => {
  const failed = (error: NodeJS.ErrnoException) =>
    void database
      .close()
      .finally(() => refuseToStart(describeListenError(error.code ?? error.message, httpPort)));
  app.server.once('error', failed);
  app.server.listen(config.port, () => {
    app.server.off('error', failed);
    resolve();
  });
});
ready = true;
// Started with an IPC channel (PM2's `wait_ready`, a test's ServerProcess), the parent hears it from this process
// itself: no polling of /health/ready, and no taking another program that answers on the port for this server.
process.send?.('ready');
// Milliseconds since the process started, at the end of each start-up step (docs/performance.md "Cold start").
phases.listening = performance.now();
logger.info(
  { startup: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)])) },
  'started',
);
logger.info(
  [
    `Listening on http://localhost:${config.port}`,
    `  REST:    http://localhost:${config.port}/v1/tenants`,
    `  GraphQL: http://localhost:${config.port}/graphql (Apollo Sandbox in a browser)`,
    `  GraphiQL (offline IDE): http://localhost:${config.port}/graphiql`,
    `  Metrics: ${config.metricsToken ? `http://localhost:${config.port}/metrics (Bearer METRICS_TOKEN)` : 'off (set METRICS_TOKEN)'}`,
    `  Subscriptions: ws://localhost:${config.port}/graphql (graphql-ws; docs/subscriptions.md)`,
    `  Database: ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`}`,
    `Get a sandbox key: npm run -s cli -- api-keys create --org ${DEMO_ORGANIZATION_SLUG} --level admin --env test`,
  ].join('\n'),
);

let stopping = false;
/**
 * A bounded clean stop (SHUTDOWN_TIMEOUT_MS): refuse new work, drain HTTP, let running jobs finish (an
 * unfinished one resumes elsewhere: core/tracked-job.ts), close the database; a step that hangs is
 * logged by name and skipped, and a hard timer guarantees the exit.
 */
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: stopping (at most ${config.shutdownTimeoutMs} ms)`);
  ready = false;
  database.embedded?.stopSupervising();
  const force = setTimeout(() => {
    logger.error(`Stop exceeded ${config.shutdownTimeoutMs + 2_000} ms; exiting now`);
    process.exit(1);
  }, config.shutdownTimeoutMs + 2_000);
  force.unref();
  const clean = await shutdownInSteps(
    [
      { name: 'drain HTTP and subscriptions', run: () => app.stop() },
      { name: 'stop the job runner', run: async () => runner?.stop() },
      { name: 'stop the LISTEN connection', run: () => listener.stop() },
      { name: 'close the database pools', run: () => database.closePools() },
      { name: 'stop the embedded PostgreSQL', run: async () => database.embedded?.stop() },
    ],
    config.shutdownTimeoutMs,
    logger,
  );
  process.exit(clean ? 0 : 1);
}
// Registered on their own: nothing else (a library's exit hook) may race the drain on these signals.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
