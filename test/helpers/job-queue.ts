import type { JobHelpers } from 'graphile-worker';
import type { Pool } from 'pg';
import { eventually } from './eventually.js';

/** A job that failed an attempt and waits in graphile-worker's queue for its retry. */
export interface WaitingRetry {
  id: string;
  attempts: number;
  /** How long the queue would still wait before the retry, in seconds. */
  secondsAhead: number;
}

/**
 * Waits until the job with the key `jobKey` has failed an attempt and waits for its
 * retry, then makes that retry due now and says how long the queue would have waited. For tests whose claim is
 * what the retry does, not the length of the wait (the product waits the cloud's Retry-After, or 30 s for a
 * Graph that did not answer: src/core/jobs.ts); the caller asserts the wait it expects.
 * graphile-worker's public view (`key` is the job key given at enqueue) and `reschedule_jobs` (it leaves a
 * running, locked job alone).
 */
export function retryNow(pool: Pick<Pool, 'query'>, jobKey: string): Promise<WaitingRetry> {
  return retryWaitingNow(pool, 'key = $1', [jobKey], `job ${jobKey}`);
}

/**
 * `retryNow` for a job queued without a key: the one of the task `task` whose payload holds `payload` (jsonb
 * containment, e.g. `{ actionId }`).
 */
export function retryTaskNow(
  pool: Pick<Pool, 'query'>,
  task: string,
  payload: Record<string, unknown>,
): Promise<WaitingRetry> {
  return retryWaitingNow(
    pool,
    // The public view has no payload: graphile-worker's own tables, as test/jobs/tracked-jobs.test.ts reads them.
    `id in (select j.id from graphile_worker._private_jobs j
             join graphile_worker._private_tasks t on t.id = j.task_id
            where t.identifier = $1 and j.payload::jsonb @> $2::jsonb)`,
    [task, JSON.stringify(payload)],
    `${task} job ${JSON.stringify(payload)}`,
  );
}

async function retryWaitingNow(
  pool: Pick<Pool, 'query'>,
  which: string,
  params: unknown[],
  what: string,
): Promise<WaitingRetry> {
  const waiting = await eventually(
    async () => {
      const { rows } = await pool.query<WaitingRetry>(
        `select id::text, attempts, extract(epoch from run_at - now())::float8 as "secondsAhead"
           from graphile_worker.jobs
          where ${which} and attempts >= 1 and locked_at is null and last_error is not null`,
        params,
      );
      expect(rows).toHaveLength(1);
      return rows[0];
    },
    { timeout: 60_000, what: `a failed attempt of ${what} waiting for its retry` },
  );
  await pool.query('select graphile_worker.reschedule_jobs(array[$1::bigint], run_at => now())', [
    waiting.id,
  ]);
  return waiting;
}

/**
 * The helpers a task reads when a test runs one of its jobs by hand: the job's id (the owner of its claims) and
 * the abort signal.
 */
export function jobHelpers(jobId: number): JobHelpers {
  return { job: { id: String(jobId) }, abortSignal: new AbortController().signal } as unknown as JobHelpers;
}
