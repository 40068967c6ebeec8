import type pg from 'pg';
import { RELEASE_DEAD_WORKERS } from './perf/graphile-worker-private-tables.js';

/** How often a process says its workers are alive (at the default stale time; a shorter one beats faster). */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A worker silent for this long is dead: its jobs go back to the queue. */
export const STALE_AFTER_MS = 20_000;
/** The shortest stale time: four heartbeats of 500 ms (a test's second process takes over within seconds). */
export const MIN_STALE_AFTER_MS = 2_000;

/**
 * A process beats four times per stale time, at most every HEARTBEAT_INTERVAL_MS: a live worker is never
 * taken for dead between two of its beats (it would have to miss three in a row), and a dead one's jobs come
 * back within the stale time plus one beat.
 */
export function heartbeatIntervalFor(staleAfterMs: number): number {
  return Math.min(HEARTBEAT_INTERVAL_MS, Math.floor(staleAfterMs / 4));
}

const HEARTBEAT = `
  insert into job_worker_heartbeats (worker_id, seen_at)
  select id, now() from unnest($1::text[]) as id
  on conflict (worker_id) do update set seen_at = excluded.seen_at`;

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
    }, heartbeatIntervalFor(this.staleAfterMs));
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
