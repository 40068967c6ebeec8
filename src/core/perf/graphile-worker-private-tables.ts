/**
 * Written against graphile-worker 0.18.0, whose schema migrations go up to sql/000020.sql (checked at
 * start-up: ./versions.ts).
 *
 * Why: two statements read the queue's tables directly: the queue gauges of /metrics (src/core/metrics.ts)
 * and the release of dead workers' jobs (src/core/job-worker-liveness.ts). graphile-worker's public view
 * `graphile_worker.jobs` joins the same tables plus the job queues, which neither statement needs, and has no
 * `task_id` to group by. A third moves a running job's `run_at` so that its retry waits for the cloud's
 * Retry-After (src/core/jobs.ts). graphile-worker 0.18 has no public way to do that (issue #28 looked):
 * - a failed attempt's delay is its fixed backoff (`failJobs`), with no option and no event after it is
 *   written (the worker fires `failJob` without awaiting it; `job:error` comes before);
 * - the public `reschedule_jobs` (WorkerUtils.rescheduleJobs) leaves locked, i.e. running, jobs alone;
 * - finishing the attempt and re-adding the job with `runAt` (helpers.addJob, a jobKey) makes a new job: its
 *   attempts start again (a cloud that always throttles would be retried for ever, and the tracked jobs' "last
 *   attempt" give-up, core/tracked-job.ts, would never come), and the failure is not recorded on the job.
 * So it stays here, fenced like the others: it also relies on the backoff formula, `exp(least(attempts, 10))`
 * seconds, which a release may change without renaming anything.
 *
 * The internals: `graphile_worker._private_jobs` (its `task_id`, `locked_at`, `locked_by`, `run_at`,
 * `attempts`, `max_attempts`) and `graphile_worker._private_tasks` (`id`, `identifier`) are, as their prefix
 * says, not API: graphile-worker renames and reshapes them in its own migrations (sql/000016.sql renamed the
 * `jobs` table to `_private_jobs`, 000017 put the view in its place). A release that changes them makes these
 * statements fail: the gauges go empty and dead workers' jobs wait for graphile-worker's own 4-hour recovery.
 * test/operations/metrics.test.ts, test/faults/interrupted-job.test.ts and test/cloud/cloud-errors.test.ts
 * ("a throttled cloud in a job") run them against the installed graphile-worker.
 */

/**
 * Job $1 (running, locked by the caller's worker) is about to fail: graphile-worker will set its `run_at` to
 * `greatest(now(), run_at) + exp(least(attempts, 10))` seconds (sql/failJobs.js). Moving `run_at` first to
 * now + $2 seconds - that backoff makes the retry come after $2 seconds (the cloud's Retry-After), or after
 * graphile-worker's own backoff when that is longer.
 */
export const DELAY_RETRY = `
  update graphile_worker._private_jobs
     set run_at = now() + ($2::float8 - exp(least(attempts, 10))) * interval '1 second'
   where id = $1::bigint and locked_by is not null`;

/** Jobs waiting per task (not locked, not failed for good) and how long the oldest due one has waited. */
export const QUEUE_SAMPLE = `
  select task.identifier as task,
         count(*)::int as depth,
         coalesce(extract(epoch from now() - min(job.run_at) filter (where job.run_at <= now())), 0)::float8
           as oldest_age_seconds
    from graphile_worker._private_jobs job
    join graphile_worker._private_tasks task on task.id = job.task_id
   where job.locked_at is null and job.attempts < job.max_attempts
   group by task.identifier`;

/**
 * Jobs locked (for longer than the stale time, $1 ms) by a worker without a recent heartbeat, in any process,
 * are unlocked with graphile-worker's own function, which also unlocks their queues; their heartbeat rows
 * go too. A worker that never wrote a heartbeat (killed in its first seconds) counts as silent.
 */
export const RELEASE_DEAD_WORKERS = `
  with dead as (
    select distinct jobs.locked_by as worker_id
      from graphile_worker._private_jobs jobs
      left join job_worker_heartbeats beat on beat.worker_id = jobs.locked_by
     where jobs.locked_by is not null
       and jobs.locked_at < now() - $1 * interval '1 millisecond'
       and (beat.seen_at is null or beat.seen_at < now() - $1 * interval '1 millisecond')
  ), released as (
    select graphile_worker.force_unlock_workers(array_agg(worker_id)) from dead having count(*) > 0
  ), forgotten as (
    delete from job_worker_heartbeats where seen_at < now() - interval '1 day'
  )
  select (select count(*) from dead)::int as released, (select count(*) from released)::int as done`;
