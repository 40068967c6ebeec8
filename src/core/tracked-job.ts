import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { JobHelpers } from 'graphile-worker';
import type { Clock } from './clock.js';
import { isDatabaseUnavailable } from './database-outage.js';
import { FINISHED_JOB_STATUSES, JobStatus } from './job-status.js';

/**
 * The one way a job-backed operation (tenant sync; isolation, scans, restores, applies, imports,
 * offboarding as they land) runs, so that a worker killed mid-job never leaves a row `Running` forever:
 *
 * - the operation's row carries the columns of `TrackedJobRow` (status, progress, error, timestamps,
 *   runAttempts, checkpoint) and is the only place its state lives;
 * - each run counts itself in `runAttempts` before working; a retried job (after a crash, its worker's
 *   jobs are released by core/job-worker-liveness.ts) finds the row `Running` and resumes: `run.resumed`
 *   is true and `run.checkpoint` holds what the dead run persisted with `run.progress(…, checkpoint)`,
 *   so work already done is skipped (or is idempotent, like a sync's reconcile);
 * - after `maxRuns` started runs the row is marked Failed with a reason that says a worker died;
 * - an error from the work marks it Failed with the error's message; a database outage instead leaves it
 *   Running and rethrows, so the job queue retries later (marked Failed on the queue's last attempt).
 *
 * Enqueue these jobs with `maxAttempts: TRACKED_JOB_QUEUE_ATTEMPTS`, so the queue always gives the helper
 * one more attempt than it needs to record the failure.
 */
export interface TrackedJobRow {
  id: string;
  status: JobStatus;
  progress: number;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  runAttempts: number;
  checkpoint: Record<string, unknown> | null;
}

/** Runs started before a job is declared dead (a crash loop must end visibly). */
export const TRACKED_JOB_MAX_RUNS = 3;
/** graphile-worker attempts for tracked jobs: more than the runs, so the give-up is always recorded. */
export const TRACKED_JOB_QUEUE_ATTEMPTS = TRACKED_JOB_MAX_RUNS + 2;

export interface TrackedRun<Row extends TrackedJobRow> {
  row: Row;
  /** A previous run of this job started and did not finish (its worker died). */
  resumed: boolean;
  /** What the previous run persisted with `progress(…, checkpoint)`; null on a first run. */
  checkpoint: Record<string, unknown> | null;
  /** Persists progress (0..100) and, optionally, where a resumed run should continue. */
  progress(percent: number, checkpoint?: Record<string, unknown>): Promise<void>;
}

export interface TrackedJobOptions<Row extends TrackedJobRow> {
  em: EntityManager;
  entity: EntityClass<Row>;
  id: string;
  clock: Clock;
  /** The job queue's helpers: on the queue's last attempt an outage is recorded instead of retried. */
  job?: Pick<JobHelpers['job'], 'attempts' | 'max_attempts'>;
  maxRuns?: number;
}

/** What the work returns: fields of the row to write with the Completed status (e.g. a summary). */
export type TrackedResult<Row> = Partial<Omit<Row, keyof TrackedJobRow>> | void;

export async function runTrackedJob<Row extends TrackedJobRow>(
  options: TrackedJobOptions<Row>,
  work: (run: TrackedRun<Row>) => Promise<TrackedResult<Row>>,
): Promise<void> {
  const { em, entity, id, clock } = options;
  const where = { id } as FilterQuery<Row>;
  const update = (fields: Partial<TrackedJobRow>) =>
    em.nativeUpdate(entity, where, fields as Parameters<typeof em.nativeUpdate<Row>>[2]);
  const row = await em.findOne(entity, where, { refresh: true });
  if (!row || FINISHED_JOB_STATUSES.includes(row.status)) return; // done already: a retry does nothing
  const resumed = row.status === JobStatus.RUNNING;
  const maxRuns = options.maxRuns ?? TRACKED_JOB_MAX_RUNS;
  if (row.runAttempts >= maxRuns) {
    await update({
      status: JobStatus.FAILED,
      error:
        `Stopped after ${row.runAttempts} interrupted runs: the worker running it died each time ` +
        `(process killed or crashed); start it again`,
      finishedAt: clock.now(),
    });
    return;
  }
  row.status = JobStatus.RUNNING;
  row.startedAt ??= clock.now();
  row.runAttempts += 1;
  await update({ status: row.status, startedAt: row.startedAt, runAttempts: row.runAttempts });
  const run: TrackedRun<Row> = {
    row,
    resumed,
    checkpoint: resumed ? row.checkpoint : null,
    progress: async (percent, checkpoint) => {
      row.progress = Math.max(0, Math.min(100, Math.round(percent)));
      if (checkpoint) row.checkpoint = checkpoint;
      await update({ progress: row.progress, ...(checkpoint ? { checkpoint } : {}) });
    },
  };
  let result: TrackedResult<Row>;
  try {
    result = await work(run);
  } catch (error) {
    const lastAttempt = options.job ? options.job.attempts >= options.job.max_attempts : false;
    // An outage is not the job's fault: the row stays Running and the queue retries (and resumes).
    if (isDatabaseUnavailable(error) && !lastAttempt) throw error;
    await update({
      status: JobStatus.FAILED,
      error: isDatabaseUnavailable(error)
        ? 'The database was unreachable on every attempt; start it again'
        : error instanceof Error
          ? error.message
          : String(error),
      finishedAt: clock.now(),
    });
    return;
  }
  em.clear(); // the work's entities are written; only the row's final state remains
  await update({
    ...(result ?? {}),
    status: JobStatus.COMPLETED,
    progress: 100,
    error: null,
    finishedAt: clock.now(),
  } as Partial<TrackedJobRow>);
}
