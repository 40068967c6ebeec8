/**
 * The jest worker's shared server: one TestApp per jest worker process, started on first use and serving every
 * test file of that worker that asks for it (`sharedSuite`, test/helpers/shared-suite.ts).
 *
 * It runs outside the test files' vm contexts, from the compiled code in dist/ (loaded by test/environment.mjs),
 * so a file that uses it does not evaluate the app's ~1,400 modules, build the schema, open an ORM or start a
 * job runner of its own: those were most of a file's fixed cost. Jest runs one file at a time in a worker, so
 * the server serves one file at a time; each file works in organizations of its own (the product's isolation),
 * and `beginFile` gives it the rest of a fresh server's state.
 *
 * The fixtures are made here too, with the server's ORM (server-side.ts): the test file's own copies of the
 * entity classes (its own module registry) are not the ones this ORM knows.
 */
import type pg from 'pg';
import type { MovableClock } from '../../src/core/clock.js';
import type { AppDeps } from '../../src/core/service-context.js';
import { RATE_LIMIT_TABLE } from '../../src/http/rate-limit.js';
import type { WebhookSettings } from '../../src/webhooks/webhook.settings.js';
import { assertMatchesOpenApi, type ObservedResponse } from './openapi-validator.js';
import { bindServerSide, type BoundServerSide } from './server-side.js';
import type { SqlCounter } from './sql-counter.js';
import { TEST_CLOCK_START, TestApp, type TestAppOptions } from './test-app.js';

/** What a test file gets of the shared server. */
export interface SharedServerHandle {
  baseUrl: string;
  databaseUrl: string;
  clock: MovableClock;
  /** The server's pool (the database owner's role, as TestApp's). */
  pool: pg.Pool;
  sql: SqlCounter;
  deps: AppDeps;
  /** server-side.ts's operations, run with this server's app. */
  serverSide: BoundServerSide;
  /** The OpenAPI check of answers, its document parsed and its validators compiled once for the worker. */
  checkAnswer: (observed: ObservedResponse) => void;
}

export interface SharedServer {
  /**
   * The handle for the file starting now, with what a fresh server of its own had: the clock at its start, an
   * empty SQL counter, empty per-address rate windows, an empty job queue, a job runner only if it asks, and
   * its own webhook settings (TestAppOptions' `webhooks`).
   */
  beginFile(options: { jobs: boolean; webhooks?: Partial<WebhookSettings> }): Promise<SharedServerHandle>;
  /**
   * The file that used the server has ended (test/environment.mjs's teardown): its job runner stops and every
   * job it left goes, running or queued, so nothing of it runs while the next file starts or holds its runner.
   */
  endFile(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every job, locked or not, and every named queue (a job of the tenant sync's per-tenant queue locks it), with
 * the job runner stopped: graphile-worker's own tables, as src/core/perf/graphile-worker-private-tables.ts
 * reads them. The heartbeats are the stopped runners' (src/core/job-worker-liveness.ts).
 */
const DROP_EVERY_JOB = [
  'delete from graphile_worker._private_jobs',
  'delete from graphile_worker._private_job_queues',
  'delete from job_worker_heartbeats',
];

/**
 * A test file's argument as this realm's own: the file runs in its own vm context, whose Dates, arrays and plain
 * objects are not this realm's (`instanceof Date` fails, and MikroORM then takes a Date for a string). Dates are
 * copied, arrays and plain objects rebuilt; anything else (an entity the server made and returned) is kept.
 */
export function fromTestRealm(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Object.prototype.toString.call(value) === '[object Date]') return new Date((value as Date).getTime());
  if (Array.isArray(value)) return value.map(fromTestRealm);
  const prototype = Object.getPrototypeOf(value) as object | null;
  // A plain object's prototype is its realm's Object.prototype, whose own prototype is null.
  const plain = prototype === null || Object.getPrototypeOf(prototype) === null;
  return plain
    ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, fromTestRealm(field)]))
    : value;
}

/** The operations, taking their arguments into this realm first. */
export function acrossRealms(operations: BoundServerSide): BoundServerSide {
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => [
      name,
      (...rest: unknown[]) => (operation as (...rest: unknown[]) => unknown)(...rest.map(fromTestRealm)),
    ]),
  ) as BoundServerSide;
}

/** What a test file gets of a TestApp of this realm (the shared server, or a file's own: realm-server.ts). */
export function handleOf(app: TestApp): SharedServerHandle {
  return {
    baseUrl: app.baseUrl,
    databaseUrl: app.databaseUrl,
    clock: app.clock,
    pool: app.pool,
    sql: app.sql,
    deps: app.deps,
    serverSide: acrossRealms(bindServerSide(app)),
    checkAnswer: assertMatchesOpenApi,
  };
}

/** `options`: the server's configuration for every file it serves (the shared live server's, shared-live-server.ts). */
export async function startSharedServer(options: Omit<TestAppOptions, 'jobs'> = {}): Promise<SharedServer> {
  const app = await TestApp.start(options);
  const serverWebhooks = { ...app.deps.webhooks };
  const handle = handleOf(app);
  /**
   * The previous file's job runner stops and its jobs go. A runner kept from one file to the next (both asking
   * for jobs) ran the next file's jobs with the task list it was started with, and tasks read some settings
   * once, when the list is built: the webhook delivery task keeps the webhook settings it was made with
   * (allowPrivateTargets, the retry schedule), so a file's deliveries to its loopback receiver were refused
   * under the previous file's settings and never arrived. Each file's runner is therefore new, built after the
   * file's settings are in place. A stopped runner has finished or failed its running jobs (asked to stop after
   * JOB_ABORT_AFTER_MS, killed past 5 s: test-app.ts) and handed back its local queue, so dropping every job
   * then leaves none running, locked or due for the next file.
   */
  async function dropJobs(): Promise<void> {
    await app.runJobs(false);
    for (const statement of DROP_EVERY_JOB) await app.pool.query(statement);
  }

  return {
    async beginFile({ jobs, webhooks }) {
      // At the end of the previous file already (endFile); again in case a request of it still running added one.
      await dropJobs();
      // The app reads its webhook settings from this one object (webhookSettingsOf): requests at each use, the
      // job runner's tasks when it starts (below): the file's own replace the previous file's.
      const settings = app.deps.webhooks as Record<string, unknown>;
      for (const key of Object.keys(settings)) delete settings[key];
      Object.assign(settings, serverWebhooks, fromTestRealm(webhooks ?? {}));
      // Requests without valid credentials count per client address, and every file calls from 127.0.0.1:
      // each file starts with the empty windows a server of its own had (organizations' are its own anyway).
      await app.pool.query(`delete from ${RATE_LIMIT_TABLE} where key like 'ip:%'`);
      app.clock.set(new Date(TEST_CLOCK_START));
      app.sql.reset();
      // A file that starts no runner may check that its jobs wait in the queue: a runner only for files that ask,
      // a new one for each, started on the file's clock.
      if (jobs) await app.runJobs(true);
      return handle;
    },
    endFile: dropJobs,
    stop: () => app.stop(),
  };
}
