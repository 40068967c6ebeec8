import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { JobHelpers } from 'graphile-worker';
import type { Clock } from './clock.js';
import { retryableCloudError } from '../cloud/cloud-error.js';
import { isDatabaseUnavailable } from './database-outage.js';

/**
 * The one way a job-backed operation (tenant sync, device actions, recommendation and information-barrier
 * applies, restores, connector imports, user imports, offboardings) runs, so that a worker killed mid-job
 * never leaves a row running forever:
 *
 * - the operation's row extends `TrackedOperation` (core/tracked-operation.entity.ts: `runAttempts`,
 *   `checkpoint`) and is the only place its state lives; its kind (`TrackedJobKind`) says which of its
 *   own status values mean queued, running, finished and failed, and where the failure reason goes;
 * - each run counts itself in `runAttempts` before working; a retried job (after a crash, its worker's
 *   jobs are released by core/job-worker-liveness.ts) finds `runAttempts > 0` and resumes: `run.resumed`
 *   is true and `run.checkpoint` holds what the dead run persisted with `run.save` / `run.progress`, and
 *   the per-item state on its rows says what is done, so nothing is done twice;
 * - after `maxRuns` started runs that died the row is marked Failed with a reason that says a worker died;
 * - an error of the work marks it Failed with the error's message (the kind's `giveUp` when it must also
 *   close items or announce it); a database outage, a throttled or failing cloud (a retryable CloudError,
 *   retried after its Retry-After: core/jobs.ts), or an error the kind calls retryable, instead leaves it
 *   running, uncounts the run (it did not die) and rethrows, so the queue retries; on the queue's last
 *   attempt it is marked Failed too ("Gave up after N attempts: ...");
 * - a run that ends by scheduling its own next job (a poll) returns `CONTINUES_IN_NEXT_JOB`.
 *
 * Enqueue these jobs with `maxAttempts: TRACKED_JOB_QUEUE_ATTEMPTS` (or more), so the queue always gives the
 * helper one more attempt than it needs to record the failure.
 */
export interface TrackedJobRow {
  id: string;
  status: string;
  runAttempts: number;
  checkpoint: Record<string, unknown> | null;
}

/** Runs started before a job is declared dead (a crash loop must end visibly). */
export const TRACKED_JOB_MAX_RUNS = 3;
/** graphile-worker attempts for tracked jobs: more than the runs, so the give-up is always recorded. */
export const TRACKED_JOB_QUEUE_ATTEMPTS = TRACKED_JOB_MAX_RUNS + 2;

/** Returned by a run that scheduled the next job of the same operation itself (e.g. the next poll). */
export const CONTINUES_IN_NEXT_JOB = Symbol('continues in the next job');

type StatusOf<Row extends TrackedJobRow> = Row['status'];
type ColumnOf<Row> = Extract<keyof Row, string>;

/** How one kind of operation's row says queued / running / done / failed. */
export interface TrackedJobKind<Row extends TrackedJobRow> {
  /** For logs and docs ("restore", "user import"). */
  name: string;
  entity: EntityClass<Row>;
  /** Statuses from which a run may start (queued, and running for a resumed run). */
  runnable: readonly StatusOf<Row>[];
  /** Written when a run starts (may equal a queued status when the kind has no visible running state). */
  running: StatusOf<Row>;
  failed: StatusOf<Row>;
  /** Written when the work returns and left the row running; omitted when the work finishes the row. */
  completed?: StatusOf<Row>;
  reasonColumn: ColumnOf<Row>;
  finishedAtColumn?: ColumnOf<Row>;
  startedAtColumn?: ColumnOf<Row>;
  progressColumn?: ColumnOf<Row>;
  /** Errors the queue retries (a cloud hiccup) before the row is failed on the last attempt. */
  retryable?: (error: unknown) => boolean;
  /** Fails the row and whatever belongs to it (items, events); default: status, reason and finish time. */
  giveUp?: (em: EntityManager, id: string, reason: string, now: Date) => Promise<void>;
}

export interface TrackedRun<Row extends TrackedJobRow> {
  row: Row;
  /** A previous run of this job started and did not finish (its worker died). */
  resumed: boolean;
  /** What the previous run persisted with `save`/`progress`; null on a first run. */
  checkpoint: Record<string, unknown> | null;
  /** Persists where a resumed run should continue. */
  save(checkpoint: Record<string, unknown>): Promise<void>;
  /** Persists progress (0..100, in the kind's progress column if it has one) and, optionally, a checkpoint. */
  progress(percent: number, checkpoint?: Record<string, unknown>): Promise<void>;
}

export interface TrackedJobOptions<Row extends TrackedJobRow> {
  em: EntityManager;
  kind: TrackedJobKind<Row>;
  id: string;
  clock: Clock;
  /** The job queue's helpers: on the queue's last attempt a retryable error is recorded, not retried. */
  job?: Pick<JobHelpers['job'], 'attempts' | 'max_attempts'>;
  maxRuns?: number;
}

/** What the work returns: fields of the row to write with the completed status (a summary, a status). */
export type TrackedResult<Row> = Partial<Omit<Row, keyof TrackedJobRow> & { status: string }> | void;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runTrackedJob<Row extends TrackedJobRow>(
  options: TrackedJobOptions<Row>,
  work: (run: TrackedRun<Row>) => Promise<TrackedResult<Row> | typeof CONTINUES_IN_NEXT_JOB>,
): Promise<void> {
  const { em, kind, id, clock } = options;
  const where = { id } as FilterQuery<Row>;
  const update = (fields: Record<string, unknown>, onlyWhileRunning = false) =>
    em.nativeUpdate(
      kind.entity,
      (onlyWhileRunning ? { id, status: kind.running } : where) as FilterQuery<Row>,
      fields as Parameters<typeof em.nativeUpdate<Row>>[2],
    );
  const giveUp = async (reason: string) => {
    if (kind.giveUp) return kind.giveUp(em.fork(), id, reason, clock.now());
    await update({
      status: kind.failed,
      [kind.reasonColumn]: reason,
      ...(kind.finishedAtColumn ? { [kind.finishedAtColumn]: clock.now() } : {}),
    });
  };

  const row = await em.findOne(kind.entity, where, { refresh: true });
  if (!row || !kind.runnable.includes(row.status)) return; // done already: a retry does nothing
  const resumed = row.runAttempts > 0;
  const maxRuns = options.maxRuns ?? TRACKED_JOB_MAX_RUNS;
  if (row.runAttempts >= maxRuns) {
    return giveUp(
      `Stopped after ${row.runAttempts} interrupted runs: the worker running it died each time ` +
        `(process killed or crashed); start it again`,
    );
  }
  const started: Record<string, unknown> = { status: kind.running, runAttempts: row.runAttempts + 1 };
  const startedAt = kind.startedAtColumn;
  if (startedAt && !(row as Record<string, unknown>)[startedAt]) started[startedAt] = clock.now();
  Object.assign(row, started);
  await update(started);
  const run: TrackedRun<Row> = {
    row,
    resumed,
    checkpoint: resumed ? row.checkpoint : null,
    save: async (checkpoint) => {
      row.checkpoint = checkpoint;
      await update({ checkpoint });
    },
    progress: async (percent, checkpoint) => {
      const fields: Record<string, unknown> = checkpoint ? { checkpoint } : {};
      if (kind.progressColumn) fields[kind.progressColumn] = Math.max(0, Math.min(100, Math.round(percent)));
      Object.assign(row, fields);
      if (Object.keys(fields).length > 0) await update(fields);
    },
  };
  let result: TrackedResult<Row> | typeof CONTINUES_IN_NEXT_JOB;
  try {
    result = await work(run);
  } catch (error) {
    const lastAttempt = options.job ? options.job.attempts >= options.job.max_attempts : false;
    const outage = isDatabaseUnavailable(error);
    const retryable = retryableCloudError(error) !== null || kind.retryable?.(error) === true;
    if ((outage || retryable) && !lastAttempt) {
      // Not a death: the run stopped on purpose and the queue retries it (and it resumes).
      await update({ runAttempts: row.runAttempts - 1 }).catch(() => undefined);
      throw error;
    }
    await giveUp(
      outage
        ? 'The database was unreachable on every attempt; start it again'
        : options.job && retryable
          ? `Gave up after ${options.job.attempts} attempts: ${messageOf(error)}`
          : messageOf(error),
    );
    return;
  }
  em.clear(); // the work's entities are written; only the row's final state remains
  if (result === CONTINUES_IN_NEXT_JOB) {
    await update({ runAttempts: 0 }); // this run ended well; the next job starts counting afresh
    return;
  }
  if (!kind.completed) return;
  await update(
    {
      status: kind.completed,
      ...(kind.progressColumn ? { [kind.progressColumn]: 100 } : {}),
      ...(kind.finishedAtColumn ? { [kind.finishedAtColumn]: clock.now() } : {}),
      ...(result ?? {}),
    },
    true, // a work that finished (or a cancel that landed) keeps its own final status
  );
}
