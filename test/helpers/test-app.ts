import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Runner } from 'graphile-worker';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { MovableClock } from '../../src/core/clock.js';
import { parseSecretsKey, SecretBox } from '../../src/core/secret-box.js';
import { TEST_SECRETS_KEY } from './test-secrets.js';
import { startJobRunner } from '../../src/core/jobs.js';
import { PgListener } from '../../src/core/pg-listener.js';
import type { AppDeps } from '../../src/core/service-context.js';
import type { CloudCallBudgetSettings } from '../../src/cloud/cloud-call-budget.js';
import { openOrm } from '../../src/db/orm.js';
import { openTimedPool, type DatabaseTimeouts } from '../../src/db/database-timeouts.js';
import { DEFAULT_APP_DATABASE_ROLE } from '../../src/core/db-session.js';
import type { HttpTimeouts } from '../../src/http/server-timeouts.js';
import { buildAppSchema } from '../../src/schema.js';
import { taskList } from '../../src/tasks.js';
import { OUTBOX_SUBSCRIBERS } from '../../src/features.js';
import type { WebhookSettings } from '../../src/webhooks/webhook.settings.js';
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { DeviceActionSettings } from '../../src/devices/device-action.settings.js';
import type { RestoreSettings } from '../../src/backup/backup.settings.js';

import { ApiClient } from './api-client.js';
import { RoundTripRecorder } from './round-trips.js';
import { SqlCounter } from './sql-counter.js';
import { createTestDatabase } from './test-database.js';

let schemaPromise: Promise<GraphQLSchema> | null = null;
/** Building the schema takes a while; one per test file is plenty (every server the file starts uses it). */
export function sharedSchema(): Promise<GraphQLSchema> {
  schemaPromise ??= buildAppSchema();
  return schemaPromise;
}

// In a module of its own, so a file that only needs a database (a server process's) does not load the app.
export { createTestDatabase };

export interface TestAppOptions {
  /** Run background jobs in this process (tenant sync, ...). */
  jobs?: boolean;
  /** Reuse an existing database instead of a fresh one (e.g. a second server on the same data). */
  databaseUrl?: string;
  maxJsonBodyBytes?: number;
  /** With `jobs`: after how long another process's silent job worker counts as dead (default 20 s). */
  jobStaleAfterMs?: number;
  /** HTTP server timeouts (http/server-timeouts.ts) other than the defaults. */
  httpTimeouts?: HttpTimeouts;
  /** Enforce row-level security, as the server does by default: requests act as the application role. */
  rowLevelSecurity?: boolean;
  /** Webhook delivery settings (e.g. allow loopback receivers, a short retry schedule). */
  webhooks?: Partial<WebhookSettings>;
  /** Serve GET /metrics for this bearer token (docs/operations.md). */
  metricsToken?: string;
  /** Database timeouts other than the defaults (db/database-timeouts.ts). */
  databaseTimeouts?: DatabaseTimeouts;
  /** Where Microsoft 365 is reached (the HTTPS Graph fake, test/helpers/graph-fake.ts). */
  microsoft365?: Partial<Microsoft365Settings>;
  /** The server's logger (default: silent, or TEST_LOG_LEVEL). */
  logger?: Logger;
  /** Cloud call budgets (src/cloud/cloud-call-budget.ts) other than Microsoft's; a job waits by moving the clock. */
  cloudCallBudget?: Partial<CloudCallBudgetSettings>;
  /** Device action jobs (src/devices/device-action.settings.ts), e.g. a shorter pause between two polls. */
  deviceActions?: Partial<DeviceActionSettings>;
  /** Restore jobs (src/backup/backup.settings.ts, RESTORE_POLL_MIN_DELAY_MS), e.g. sooner looks at a restore session. */
  restores?: Partial<RestoreSettings>;
  /** false: REST reads through Express's routers only, not the dispatch table (test/rest/dispatch.test.ts). */
  restDispatch?: boolean;
  /** false: REST reads through graphql-jit only, not their documents' plans (src/core/lean-plan/lean-run.ts). */
  restLeanRuns?: boolean;
  /**
   * false: GraphQL queries through graphql-jit only, not their plans (src/http/graphql-lean-run.ts); a function:
   * asked at each request (one server answers with and without plans: test/http/graphql-lean-run.test.ts).
   */
  graphqlLeanRuns?: AppOptions['graphqlLeanRuns'];
  /** Express's `trust proxy` (TRUST_PROXY): e.g. `['loopback']`, so a request's X-Forwarded-For is its address. */
  trustProxy?: AppOptions['trustProxy'];
  /** The OAuth sign-in and token endpoints' limits (src/oauth/oauth.settings.ts) other than the defaults. */
  oauthLimits?: AppOptions['oauthLimits'];
  /**
   * Where the server's LISTEN connection goes (default: its database); another database cuts it off from the
   * NOTIFYs of other servers on its database (to show what it does without them).
   */
  listenerDatabaseUrl?: string;
  /**
   * Run every migration on `databaseUrl` first (an empty database, e.g. on a cluster of the file's own), as
   * global-setup.mjs does to the template: with row-level security for the application role.
   */
  migrate?: boolean;
  /**
   * Record the statements every `pg` client of this realm sends (a RoundTripRecorder, round-trips.ts), installed
   * before the server's pools connect (each client binds its query method when it connects) and removed when the
   * server stops: `app.roundTrips`, or onServer `roundTripRecorder` for a realm server (test/perf/round-trips).
   */
  recordRoundTrips?: boolean;
}

/** Every migration on the database at `url`, with row-level security for the application role. */
async function migrateDatabase(url: string): Promise<void> {
  // Loaded here: the migrations' modules only for the file that asks.
  const { logPoolErrors, migrateSchema } = await import('../../src/db/prepare.js');
  const orm = await openOrm({ databaseUrl: url });
  const pool = logPoolErrors(new pg.Pool({ connectionString: url }), () => undefined);
  try {
    await migrateSchema(orm, pool, DEFAULT_APP_DATABASE_ROLE);
  } finally {
    await Promise.all([orm.close(), pool.end()]);
  }
}

export type { ApiResponse, RequestOptions } from './api-client.js';

/** Where every test server's clock starts (a shared server's, at each file it serves). */
export const TEST_CLOCK_START = '2026-11-01T12:00:00Z';

/** A job's wait on the clock: it moves to the wait's end, unless another waiter moved it past already. */
async function moveClockTo(clock: MovableClock, ms: number): Promise<void> {
  const until = clock.now().getTime() + ms;
  await Promise.resolve();
  if (clock.now().getTime() < until) clock.set(new Date(until));
}

/**
 * How long a job runner's graceful stop may wait for its running jobs (they are asked to stop after
 * JOB_ABORT_AFTER_MS) before it is killed: a job that ignores the abort (a request the cloud or a receiver never
 * answers) then no longer holds the stop, and with it the test file, up to its own timeout.
 */
const RUNNER_STOP_DEADLINE_MS = 5_000;

/** `runner.stop()`, and past the deadline `runner.kill()`: the running jobs are failed back to the queue. */
async function stopWithin(runner: Runner, deadlineMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopping = runner.stop();
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
  try {
    if ((await Promise.race([stopping, late])) !== 'late') return;
  } finally {
    clearTimeout(timer);
  }
  // The kill makes the graceful stop fail ("forcefulShutdown was initiated"): the kill's own result is what counts.
  stopping.catch(() => undefined);
  await runner.kill();
}

/** A running server on an ephemeral loopback port, with its own database and a movable clock. */
export class TestApp extends ApiClient {
  /** Connections the HTTP server accepted since it started (`acceptedConnections`). */
  private accepted = 0;

  private constructor(
    baseUrl: string,
    readonly databaseUrl: string,
    readonly orm: MikroORM,
    readonly pool: pg.Pool,
    readonly clock: MovableClock,
    readonly deps: AppDeps,
    readonly sql: SqlCounter,
    private readonly app: App,
    private readonly listener: PgListener,
    private readonly jobOptions: { staleAfterMs?: number },
  ) {
    super(baseUrl);
    app.server.on('connection', () => (this.accepted += 1));
  }

  static async start(options: TestAppOptions = {}): Promise<TestApp> {
    const url = options.databaseUrl ?? (await createTestDatabase());
    if (options.migrate) await migrateDatabase(url);
    const roundTrips = options.recordRoundTrips ? new RoundTripRecorder() : undefined;
    roundTrips?.install();
    const sql = new SqlCounter();
    const orm = await openOrm({
      databaseUrl: url,
      onQuery: (statement) => sql.record(statement),
      poolMax: 20,
      appRole: (options.rowLevelSecurity ?? true) ? DEFAULT_APP_DATABASE_ROLE : undefined,
      timeouts: options.databaseTimeouts,
    });
    const pool = openTimedPool(url, 10, options.databaseTimeouts);
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const clock = new MovableClock(new Date(TEST_CLOCK_START));
    const deps: AppDeps = {
      clock,
      clouds: new SimulatedCloud(orm, clock),
      publicUrl: 'http://app.test',
      outboxSubscribers: OUTBOX_SUBSCRIBERS,
      webhooks: { secretBox: new SecretBox(parseSecretsKey(TEST_SECRETS_KEY)), ...options.webhooks },
      microsoft365: options.microsoft365,
      // Explicitly: a live key of an organization without a cloud connection acts on the simulated cloud.
      liveWithoutConnection: 'simulated',
      deviceActions: options.deviceActions,
      restores: options.restores,
      ...(options.cloudCallBudget
        ? {
            cloudCallBudget: {
              sleep: async (ms: number) => moveClockTo(clock, ms),
              ...options.cloudCallBudget,
            },
          }
        : {}),
    };
    const listener = new PgListener(options.listenerDatabaseUrl ?? url);
    await listener.start();
    const app = await createApp({
      ...deps,
      orm,
      pool,
      schema: await sharedSchema(),
      logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      maxJsonBodyBytes: options.maxJsonBodyBytes ?? 1024 * 1024,
      listener,
      isReady: () => true,
      httpTimeouts: options.httpTimeouts,
      metricsToken: options.metricsToken,
      // A file calls a few of the 125 routes: each is validated on its first call instead of all at every start
      // (about 0.2 s of each file under Jest); test/rest/route-table.test.ts compiles every route.
      compileRestRoutes: 'on-first-request',
      restDispatch: options.restDispatch,
      restLeanRuns: options.restLeanRuns,
      graphqlLeanRuns: options.graphqlLeanRuns,
      trustProxy: options.trustProxy,
      oauthLimits: options.oauthLimits,
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const { port } = app.server.address() as AddressInfo;
    const testApp = new TestApp(`http://127.0.0.1:${port}`, url, orm, pool, clock, deps, sql, app, listener, {
      staleAfterMs: options.jobStaleAfterMs,
    });
    testApp.roundTrips = roundTrips;
    if (options.jobs) await testApp.runJobs(true);
    return testApp;
  }

  private runner: Runner | null = null;
  /** The statements' recorder (TestAppOptions' `recordRoundTrips`), if asked. */
  roundTrips: RoundTripRecorder | undefined;

  /** Starts or stops this server's job runner (TestAppOptions' `jobs`; the shared server's follows each file's). */
  async runJobs(on: boolean): Promise<void> {
    if (on && !this.runner) {
      this.runner = await startJobRunner({
        pgPool: this.pool,
        taskList: taskList(this.orm, this.deps),
        concurrency: 2,
        // The server's default, so job tests run the queue as production does.
        localQueueSize: loadConfig({}).workerLocalQueueSize,
        pollIntervalMs: 50,
        staleAfterMs: this.jobOptions.staleAfterMs,
        log: () => undefined,
      });
    } else if (!on && this.runner) {
      const runner = this.runner;
      this.runner = null;
      await stopWithin(runner, RUNNER_STOP_DEADLINE_MS);
    }
  }

  /** Connections the HTTP server holds open right now (sockets not yet destroyed). */
  connections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  /**
   * Connections the HTTP server has accepted since it started, closed ones included: a count of what a burst of
   * clients got in that does not depend on all of them being open at one moment (the server may already have
   * timed the first out before it accepts the last).
   */
  acceptedConnections(): number {
    return this.accepted;
  }

  async stop(): Promise<void> {
    await this.runJobs(false);
    await this.app.stop();
    await new Promise<void>((resolve) => this.app.server.close(() => resolve()));
    await this.listener.stop();
    await this.orm.close();
    await this.pool.end();
    this.roundTrips?.uninstall();
  }
}
