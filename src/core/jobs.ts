import type { EntityManager } from '@mikro-orm/postgresql';
import { EventEmitter } from 'node:events';
import {
  Logger,
  parseCronItems,
  run,
  type CronItem,
  type Runner,
  type Task,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import type pg from 'pg';
import { retryableCloudError } from '../cloud/cloud-error.js';
import { currentOrganizationSession, runOutsideOrganizationSession } from './db-session.js';
import { assertRoomForJob } from './job-limits.js';
import { DELAY_RETRY } from './perf/graphile-worker-private-tables.js';
import { JobWorkerLiveness } from './job-worker-liveness.js';

/**
 * Background work runs on graphile-worker: a job queue that lives in PostgreSQL, so it survives
 * restarts and every server process can pick up work. Jobs are added with SQL inside the caller's
 * transaction, which means a job exists if and only if the change that asked for it committed.
 */
export interface EnqueueOptions {
  /** Replaces a pending job with the same key instead of adding a second one. */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Jobs of one queue run one at a time, in order. */
  queueName?: string;
}

export async function enqueueJob(
  em: EntityManager,
  taskName: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<void> {
  // A request queueing work is held to its organization's jobs-in-flight limit; jobs and the CLI are not.
  const session = currentOrganizationSession();
  if (session) await assertRoomForJob(em, session);
  await em.execute(
    // enqueue_job: add_job as the service role, so the request path's role may call it (db/row-level-security.ts).
    `select enqueue_job(?::text, ?::json, queue_name => ?::text, run_at => ?::timestamptz,
       max_attempts => ?::int, job_key => ?::text)`,
    [
      taskName,
      JSON.stringify(payload),
      options.queueName ?? null,
      options.runAt?.toISOString() ?? null,
      options.maxAttempts ?? 5,
      options.jobKey ?? null,
    ],
  );
}

export interface JobRunnerOptions {
  pgPool: pg.Pool;
  taskList: TaskList;
  /** Scheduled tasks; absent in tests, which run them by hand with a moved clock. */
  cronItems?: CronItem[];
  concurrency: number;
  /**
   * graphile-worker's local queue: one query locks and fetches this many due jobs, which the process's workers then
   * take without a round trip each (≤ 1: one query per job; WORKER_LOCAL_QUEUE_SIZE, docs/performance.md "Job
   * queue"). Queued jobs are locked by the pool's id, so the liveness sweep returns a killed process's queued jobs
   * as it returns its running ones; a stopping process hands them back at once.
   */
  localQueueSize: number;
  pollIntervalMs?: number;
  /** How long a silent worker is taken for alive (default STALE_AFTER_MS; tests use less). */
  staleAfterMs?: number;
  log: (level: string, message: string) => void;
}

/**
 * Each task runs as the service role (core/db-session.ts): a worker woken through a connection first opened
 * inside a request would otherwise inherit that request's row-level security session. A task that fails
 * because the cloud throttled or failed (a retryable CloudError, src/cloud/cloud-error.ts) is retried by the
 * queue after the cloud's Retry-After rather than graphile-worker's shorter first backoffs; like any failure
 * it is retried until the job's max attempts, after which it stays failed (tracked jobs record why).
 */
function outsideOrganizationSessions(taskList: TaskList): TaskList {
  const wrapped: TaskList = {};
  for (const [name, task] of Object.entries(taskList)) {
    if (!task) continue;
    wrapped[name] = (async (payload, helpers) => {
      try {
        return await runOutsideOrganizationSession(() => task(payload, helpers));
      } catch (error) {
        const retryAfter = retryableCloudError(error)?.retryAfterSeconds;
        if (retryAfter !== undefined && helpers.job.attempts < helpers.job.max_attempts) {
          await helpers
            .withPgClient((client) => client.query(DELAY_RETRY, [helpers.job.id, retryAfter]))
            .catch(() => undefined); // at worst the retry comes after graphile-worker's own backoff
        }
        throw error;
      }
    }) as Task;
  }
  return wrapped;
}

/**
 * How long after a failed attempt (the job's `attempts`, counting this one) the queue runs the job again: the
 * cloud's Retry-After as set above, or graphile-worker's own backoff (`exp(least(attempts, 10))` s, see
 * DELAY_RETRY) when that is longer or the cloud named no wait. For an operation to show when its next try comes.
 */
export function queueRetryDelaySeconds(attempts: number, retryAfterSeconds?: number): number {
  return Math.max(retryAfterSeconds ?? 0, Math.exp(Math.min(attempts, 10)));
}

/** How long a stopping runner waits for its running jobs before raising their abort signal. */
export const JOB_ABORT_AFTER_MS = 1_000;

export async function startJobRunner(options: JobRunnerOptions): Promise<Runner> {
  const { localQueueSize } = options;
  const liveness = new JobWorkerLiveness(
    options.pgPool,
    (message) => options.log('warning', message),
    options.staleAfterMs,
  );
  const events: WorkerEvents = new EventEmitter();
  events.on('worker:create', ({ worker }) => liveness.addWorker(worker.workerId));
  // With a local queue, jobs are locked by the pool's id rather than a worker's.
  events.on('pool:create', ({ workerPool }) => liveness.addWorker(workerPool.id));
  const runner = await run({
    pgPool: options.pgPool,
    // Jobs act for every organization as the service role; a worker woken through a connection first opened
    // inside a request would otherwise inherit that request's row-level security session.
    taskList: outsideOrganizationSessions(options.taskList),
    concurrency: options.concurrency,
    preset: {
      worker: {
        localQueue: { size: localQueueSize > 1 ? localQueueSize : -1 },
        // A stop gives running jobs this long, then raises their abort signal: long jobs end between two items
        // (run.checkStop, core/tracked-job.ts) and resume elsewhere, well within SHUTDOWN_TIMEOUT_MS.
        gracefulShutdownAbortTimeout: JOB_ABORT_AFTER_MS,
      },
    },
    noHandleSignals: true,
    pollInterval: options.pollIntervalMs ?? 1000,
    parsedCronItems: parseCronItems(options.cronItems ?? []), // declared in code (tasks.ts), not a crontab file
    logger: new Logger(() => (level, message) => options.log(level, message)),
    events,
  });
  // Jobs of a killed process come back in seconds, not graphile-worker's 4 hours (job-worker-liveness.ts).
  await liveness.start();
  const stop = runner.stop.bind(runner);
  runner.stop = async (reason?: string) => {
    await liveness.stop();
    await stop(reason);
  };
  return runner;
}
