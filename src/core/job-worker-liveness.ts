import type pg from 'pg';

/** How often a process says its workers are alive. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker silent for this long is dead: its jobs go back to the queue. */
export const STALE_AFTER_MS = 20_000;

const HEARTBEAT = `
  insert into job_worker_heartbeats (worker_id, seen_at)
  select id, now() from unnest($1::text[]) as id
  on conflict (worker_id) do update set seen_at = excluded.seen_at`;

/**
 * Jobs locked (for longer than the stale time) by a worker without a recent heartbeat, in any process,
 * are unlocked with graphile-worker's own function, which also unlocks their queues; their heartbeat rows
 * go too. A worker that never wrote a heartbeat (killed in its first seconds) counts as silent.
 */
const RELEASE_DEAD_WORKERS = `
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

/**
 * graphile-worker only takes back the jobs of a crashed process after 4 hours. Each process running jobs
 * writes a heartbeat for its workers every few seconds and, at the same time, releases the jobs of workers
 * whose heartbeat stopped (a process killed with SIGKILL, a machine that died), so their work resumes
 * within about STALE_AFTER_MS on any surviving or restarted process.
 */
export class JobWorkerLiveness {
  private readonly workerIds = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (message: string) => void,
    private readonly staleAfterMs: number = STALE_AFTER_MS,
  ) {}

  addWorker(workerId: string): void {
    this.workerIds.add(workerId);
  }

  /** Beats once now (so jobs taken from here on are covered), then every interval. */
  async start(): Promise<void> {
    await this.beat();
    // A timer is right here: it paces a heartbeat, it holds no work of its own.
    this.timer = setInterval(() => {
      this.running ??= this.beat()
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => (this.running = null));
    }, HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One heartbeat and one sweep for dead workers. */
  async beat(): Promise<number> {
    try {
      await this.pool.query(HEARTBEAT, [[...this.workerIds]]);
      const { rows } = await this.pool.query<{ released: number }>(RELEASE_DEAD_WORKERS, [this.staleAfterMs]);
      const released = rows[0]?.released ?? 0;
      if (released > 0) this.log(`released the jobs of ${released} dead job worker(s)`);
      return released;
    } catch (error) {
      this.log(`job worker heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }
}
