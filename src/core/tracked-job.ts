import { randomUUID } from 'node:crypto';
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
  runToken: string | null;
}

/**
 * A run that lost its fencing token: another run took the operation over (this worker was frozen or cut off
 * long enough for its job to be released). It writes nothing more and stops; the error is thrown to the
 * queue, whose failure of a job another worker holds changes nothing (graphile-worker checks the lock).
 */
export class LostRunError extends Error {
  constructor(kind: string) {
    super(`This ${kind} run lost its fencing token (another run took the operation over); it stops`);
    this.name = 'LostRunError';
  }
}

/** The worker is stopping (SIGTERM): the run ends between two items, uncounted; the queue runs it again. */
export class RunStopped extends Error {
  constructor(kind: string) {
    super(`The worker stopped during the ${kind}; it resumes at the next item`);
    this.name = 'RunStopped';
  }
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
  /** This run's fencing token (the row's `runToken` while this run owns the operation). */
  token: string;
  /**
   * Inside the transaction of an item's write: throws LostRunError unless this run still owns the operation,
   * and holds a share lock on the operation's row until that transaction ends, so no other run can take it
   * over between the check and the write.
   */
  fence(em: EntityManager): Promise<void>;
  /** Throws RunStopped when the worker is told to stop: call it between two items. */
  checkStop(): void;
  /** A previous run of this job started and did not finish (its worker died). */
  resumed: boolean;
  /** The queue's last attempt: a retryable error thrown now is recorded as the failure, not retried. */
  lastAttempt: boolean;
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
  /** The job's abort signal (graphile-worker's, raised when the worker stops): honoured by `run.checkStop`. */
  abortSignal?: AbortSignal;
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
  const token = randomUUID();
  const owned = { id, runToken: token } as FilterQuery<Row>;
  const write = (where: FilterQuery<Row>, fields: Record<string, unknown>) =>
    em.nativeUpdate(kind.entity, where, fields as Parameters<typeof em.nativeUpdate<Row>>[2]);
  /** A write of this run's: refused (LostRunError) once another run owns the operation. */
  const update = async (fields: Record<string, unknown>) => {
    if ((await write(owned, fields)) === 0) throw new LostRunError(kind.name);
  };
  const giveUp = async (reason: string) => {
    if (kind.giveUp) return kind.giveUp(em.fork(), id, reason, clock.now());
    await update({
      status: kind.failed,
      [kind.reasonColumn]: reason,
      ...(kind.finishedAtColumn ? { [kind.finishedAtColumn]: clock.now() } : {}),
    });
  };

  const row = await em.findOne(kind.entity, { id } as FilterQuery<Row>, { refresh: true });
  if (!row || !kind.runnable.includes(row.status)) return; // done already: a retry does nothing
  const resumed = row.runAttempts > 0;
  const maxRuns = options.maxRuns ?? TRACKED_JOB_MAX_RUNS;
  const started: Record<string, unknown> = {
    status: kind.running,
    runAttempts: row.runAttempts + 1,
    runToken: token,
  };
  const startedAt = kind.startedAtColumn;
  if (startedAt && !(row as Record<string, unknown>)[startedAt]) started[startedAt] = clock.now();
  // The take-over is conditional on the state just read: of two runs starting at once, one wins.
  const before = { id, status: row.status, runToken: row.runToken, runAttempts: row.runAttempts };
  if (row.runAttempts >= maxRuns) {
    if ((await write(before as FilterQuery<Row>, { runToken: token })) === 0)
      throw new LostRunError(kind.name);
    return giveUp(
      `Stopped after ${row.runAttempts} interrupted runs: the worker running it died each time without ` +
        `progress (process killed or crashed); start it again`,
    );
  }
  if ((await write(before as FilterQuery<Row>, started)) === 0) throw new LostRunError(kind.name);
  Object.assign(row, started);
  const lastAttempt = options.job ? options.job.attempts >= options.job.max_attempts : false;
  let progressed = false;
  // Interruptions are counted for runs that made no progress: a run that saved a checkpoint (item progress a
  // resumed run skips) counts as the one run since the last progress, so a long job killed now and then
  // goes on, while one that dies before any progress three times is given up (issue #34 item 3).
  const madeProgress = (fields: Record<string, unknown>) => {
    progressed = true;
    fields.runAttempts = 1;
    return fields;
  };
  const run: TrackedRun<Row> = {
    row,
    token,
    resumed,
    lastAttempt,
    checkpoint: resumed ? row.checkpoint : null,
    fence: async (transaction) => {
      const rows = await transaction.execute<unknown[]>(
        `select 1 from "${em.getMetadata().get(kind.entity).tableName}" where id = ? and run_token = ? for share`,
        [id, token],
      );
      if (rows.length === 0) throw new LostRunError(kind.name);
    },
    checkStop: () => {
      if (options.abortSignal?.aborted) throw new RunStopped(kind.name);
    },
    save: async (checkpoint) => {
      row.checkpoint = checkpoint;
      await update(madeProgress({ checkpoint }));
    },
    progress: async (percent, checkpoint) => {
      const fields: Record<string, unknown> = checkpoint ? { checkpoint } : {};
      if (kind.progressColumn) fields[kind.progressColumn] = Math.max(0, Math.min(100, Math.round(percent)));
      Object.assign(row, fields);
      // Only a checkpoint is progress a resumed run keeps (a percentage alone is redone from the start).
      if (Object.keys(fields).length > 0) await update(checkpoint ? madeProgress(fields) : fields);
    },
  };
  let result: TrackedResult<Row> | typeof CONTINUES_IN_NEXT_JOB;
  try {
    result = await work(run);
  } catch (error) {
    if (error instanceof LostRunError) throw error; // another run owns it: nothing more to write
    const outage = isDatabaseUnavailable(error);
    const retryable = retryableCloudError(error) !== null || kind.retryable?.(error) === true;
    if (error instanceof RunStopped || ((outage || retryable) && !lastAttempt)) {
      // Not a death: the run stopped on purpose and the queue retries it (and it resumes).
      const runAttempts = progressed ? 0 : row.runAttempts - 1;
      await write(owned, { runAttempts }).catch(() => undefined);
      throw error;
    }
    // A stale run's failure is not the operation's: only the owner records it.
    if ((await write(owned, { runToken: token })) === 0) throw new LostRunError(kind.name);
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
  // A work that finished (or a cancel that landed) keeps its own final status; a stale run writes nothing.
  await write({ id, status: kind.running, runToken: token } as FilterQuery<Row>, {
    status: kind.completed,
    ...(kind.progressColumn ? { [kind.progressColumn]: 100 } : {}),
    ...(kind.finishedAtColumn ? { [kind.finishedAtColumn]: clock.now() } : {}),
    ...(result ?? {}),
  });
}
