import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { currentOrganizationSession, runOutsideOrganizationSession } from '../core/db-session.js';
import { CloudError } from './cloud-error.js';

/**
 * Per-tenant budgets for calls to the upstream cloud (docs/microsoft365.md "Throttling"): Microsoft limits
 * each app in each customer tenant, so every instance on the database counts in the same rows.
 *
 * - `graph`: every Graph call (Intune: 1,000 requests per 20 s per app per tenant);
 * - `graph-writes`: Graph POST/PATCH/PUT/DELETE (Intune: 100 per 20 s per app per tenant);
 * - `defender-machine-actions`: Defender for Endpoint machine actions (100 per minute and 1,500 per hour).
 */
export type CloudCallBucket = 'graph' | 'graph-writes' | 'defender-machine-actions';

/** At most `limit` calls in a window of `seconds` (a fixed window starting at its first call). */
export interface CallWindow {
  seconds: number;
  limit: number;
}

export const DEFAULT_CLOUD_CALL_LIMITS: Readonly<Record<CloudCallBucket, readonly CallWindow[]>> = {
  graph: [{ seconds: 20, limit: 1000 }],
  'graph-writes': [{ seconds: 20, limit: 100 }],
  'defender-machine-actions': [
    { seconds: 60, limit: 100 },
    { seconds: 3600, limit: 1500 },
  ],
};

export interface CloudCallBudgetSettings {
  limits: Partial<Record<CloudCallBucket, readonly CallWindow[]>>;
  /**
   * The longest a job waits for room inside one call; a longer wait (an hour's window full) fails the call
   * Throttled with the time left, so the job queue retries it then instead of holding a worker.
   */
  maxWaitSeconds: number;
  /** How a job waits (tests move their clock instead); default: a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

declare module '../core/service-context.js' {
  interface AppDeps {
    /** Per-tenant cloud call budgets (cloud-call-budget.ts); absent: Microsoft's published limits. */
    cloudCallBudget?: Partial<CloudCallBudgetSettings>;
  }
}

/** Takes one call of `bucket` for a customer tenant (its external id) of the app it was made for. */
export type TakeCloudCallBudget = (tenantExternalId: string, bucket: CloudCallBucket) => Promise<void>;

/** What the work run inside `recordingCloudWaits` waited for, per customer tenant (external id), in ms. */
export type CloudWaits = Map<string, number>;

/** A recording: its waits, and per tenant until when (ms) they are counted already. */
interface Recording {
  waits: CloudWaits;
  countedUntil: Map<string, number>;
}

const recordings = new AsyncLocalStorage<Recording>();

/**
 * Adds the wait from `start` to `end` to the tenant's total, the part another call of the same recording
 * waited through already left out: calls made side by side (a sync's reads) wait together, and the total is
 * the time the work was held up, not the sum of their waits.
 */
function recordWait(tenantExternalId: string, start: number, end: number): void {
  const recording = recordings.getStore();
  if (!recording || end <= start) return;
  const counted = recording.countedUntil.get(tenantExternalId) ?? 0;
  const added = Math.max(0, end - Math.max(start, counted));
  recording.countedUntil.set(tenantExternalId, Math.max(counted, end));
  recording.waits.set(tenantExternalId, (recording.waits.get(tenantExternalId) ?? 0) + added);
}

/**
 * Runs `work` and answers, with its result, how long its cloud calls waited for a budget per tenant: a
 * fan-out job (recommendation apply, tenant sync) shows it in its progress or result.
 */
export async function recordingCloudWaits<T>(
  work: () => Promise<T>,
): Promise<{ result: T; waits: CloudWaits }> {
  const recording: Recording = { waits: new Map(), countedUntil: new Map() };
  const result = await recordings.run(recording, work);
  return { result, waits: recording.waits };
}

/** Total ms of `waits` (every tenant). */
export function totalWaitMs(waits: CloudWaits): number {
  return [...waits.values()].reduce((sum, ms) => sum + ms, 0);
}

/**
 * One window per row of the shared `rate_limits` table (unlogged, purged by housekeeping when expired),
 * key `cloud:<bucket>:<app>:<tenant>:<seconds>`, `expire` in ms since the epoch. One transaction takes a call
 * from every window of the bucket only when all have room: the UPSERT starts a window anew when it has
 * expired and locks the rows (in key order, so two takers cannot deadlock), then the increment.
 */
const OPEN_WINDOWS_SQL = `
  insert into rate_limits (key, points, expire)
  select w.key, 0, w.expire from jsonb_to_recordset(?::jsonb) as w(key text, expire bigint) order by w.key
  on conflict (key) do update
     set points = case when rate_limits.expire <= ? then 0 else rate_limits.points end,
         expire = case when rate_limits.expire <= ? then excluded.expire else rate_limits.expire end
  returning key, points, expire`;
const TAKE_SQL = `update rate_limits set points = points + 1
  where key in (select jsonb_array_elements_text(?::jsonb))`;

/**
 * The process's cloud call budgets, counted in PostgreSQL so that every instance shares them. A request
 * that finds no room fails at once with CloudError Throttled (503 with Retry-After, nothing stored); a job
 * (any work outside a request's organization session) waits for the window to end, up to `maxWaitSeconds`,
 * and the time it waited is added to the tenant's entry of the current `recordingCloudWaits`.
 */
export class CloudCallBudget {
  private readonly settings: CloudCallBudgetSettings;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    settings: Partial<CloudCallBudgetSettings> = {},
  ) {
    this.settings = { limits: {}, maxWaitSeconds: 60, ...settings };
  }

  /** The taker for one app (Microsoft limits per app per tenant): what the Graph and Defender clients call. */
  forApp(appId: string): TakeCloudCallBudget {
    return (tenantExternalId, bucket) => this.take(appId, tenantExternalId, bucket);
  }

  windowsOf(bucket: CloudCallBucket): readonly CallWindow[] {
    return this.settings.limits[bucket] ?? DEFAULT_CLOUD_CALL_LIMITS[bucket];
  }

  async take(appId: string, tenantExternalId: string, bucket: CloudCallBucket): Promise<void> {
    const inRequest = currentOrganizationSession() !== undefined;
    const started = this.clock.now().getTime();
    for (;;) {
      const waitMs = await this.tryTake(appId, tenantExternalId, bucket);
      if (waitMs === 0) break;
      const waited = this.clock.now().getTime() - started;
      if (inRequest || waited + waitMs > this.settings.maxWaitSeconds * 1000)
        throw new CloudError(
          'Throttled',
          `The ${bucket} call budget of tenant ${tenantExternalId} is used up for now ` +
            `(${this.describe(bucket)}); try again in ${Math.ceil(waitMs / 1000)} s`,
          { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), tenantExternalId },
        );
      await (this.settings.sleep ?? sleep)(waitMs);
    }
    recordWait(tenantExternalId, started, this.clock.now().getTime());
  }

  /** Takes one call when every window has room (0), else how long until the fullest one ends (ms). */
  private async tryTake(appId: string, tenantExternalId: string, bucket: CloudCallBucket): Promise<number> {
    const windows = this.windowsOf(bucket);
    const now = this.clock.now().getTime();
    const keys = windows.map(({ seconds }) => `cloud:${bucket}:${appId}:${tenantExternalId}:${seconds}`);
    const expires = windows.map(({ seconds }) => now + seconds * 1000);
    return runOutsideOrganizationSession(() =>
      this.orm.em.fork().transactional(async (em) => {
        const rows = await em.execute<{ key: string; points: number; expire: string }[]>(OPEN_WINDOWS_SQL, [
          JSON.stringify(keys.map((key, i) => ({ key, expire: expires[i] }))),
          now,
          now,
        ]);
        let waitMs = 0;
        for (const row of rows) {
          const window = windows[keys.indexOf(row.key)];
          if (row.points >= window.limit) waitMs = Math.max(waitMs, Number(row.expire) - now);
        }
        if (waitMs > 0) return waitMs;
        await em.execute(TAKE_SQL, [JSON.stringify(keys)]);
        return 0;
      }),
    );
  }

  private describe(bucket: CloudCallBucket): string {
    return this.windowsOf(bucket)
      .map(({ seconds, limit }) => `${limit} per ${seconds} s`)
      .join(' and ');
  }
}

const budgets = new WeakMap<MikroORM, CloudCallBudget>();

/** The process's budget counter for an ORM (one per database connection pool). */
export function cloudCallBudgetOf(
  orm: MikroORM,
  deps: { clock: Clock; cloudCallBudget?: Partial<CloudCallBudgetSettings> },
): CloudCallBudget {
  let budget = budgets.get(orm);
  if (!budget) {
    budget = new CloudCallBudget(orm, deps.clock, deps.cloudCallBudget);
    budgets.set(orm, budget);
  }
  return budget;
}
