import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from '../core/perf/rate-limiter-postgres.js';
import { isDatabaseUnavailable } from '../core/database-outage.js';
import { RateLimitedError } from '../core/errors.js';
import { rateLimitRejections } from '../core/metrics.js';
import type { Viewer } from '../core/viewer.js';
import { RATE_LIMIT_BY_PLAN, Plan } from '../organizations/organization.entity.js';

const WINDOW_SECONDS = 60;

export interface RateLimitOutcome {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds when the window resets. */
  resetSeconds: number;
  retryAfterSeconds: number;
}
export const RATE_LIMIT_TABLE = 'rate_limits';

/** One fixed window's counter: whose it is, its key in `rate_limits`, and its limit per minute. */
export interface RateBucket {
  key: string;
  limit: number;
  caller: 'credential' | 'ip';
}

/** An organization-environment's window (API keys, access tokens, and its export download links). */
export function organizationBucket(organizationId: string, environment: string, limit: number): RateBucket {
  return { key: `${organizationId}:${environment}`, limit, caller: 'credential' };
}

/** A client address's window, at the Starter limit, for requests without valid credentials. */
export function clientIpBucket(ip: string): RateBucket {
  return { key: `ip:${ip}`, limit: RATE_LIMIT_BY_PLAN[Plan.STARTER], caller: 'ip' };
}

/** The window a caller counts in: its organization's with a valid credential, else its client address's. */
function callerBucket(viewer: Viewer | undefined, ip: string): RateBucket {
  return viewer
    ? organizationBucket(viewer.organizationId, viewer.environment, viewer.rateLimitPerMinute)
    : clientIpBucket(ip);
}

/** One request's share of a counted batch: its place in the window and the window's time left. */
interface Counted {
  consumed: number;
  msBeforeNext: number;
}

interface Waiter {
  points: number;
  resolve: (counted: Counted) => void;
  reject: (error: unknown) => void;
}

/**
 * Fixed 60-second windows per organization and environment (per IP for requests without valid
 * credentials), shared by /v1, /api and /graphql. Counters live in PostgreSQL through
 * rate-limiter-flexible, so every server process on the database shares them.
 *
 * Requests of one window that arrive while its counter's UPSERT is in flight are counted together by the
 * next one (their points summed): under load one statement counts many requests instead of each queueing
 * for the same hot row. Nothing is counted late or guessed: every request is in the shared counter before it
 * is allowed, and each gets its exact place in the batch (the counter before the batch plus the points of
 * the requests ahead of it), so the decisions are those of counting them one by one in that order.
 */
export class RateLimiter {
  private readonly limiters = new Map<number, RateLimiterPostgres>();
  /** Per window key: the requests waiting for the UPSERT in flight to finish (absent: none in flight). */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Per credential window key: until when (ms) this process last saw it refused (rate-limit-overlap.ts). */
  private readonly refusedUntil = new Map<string, number>();

  constructor(private readonly pool: pg.Pool) {}

  private limiterFor(points: number): RateLimiterPostgres {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true, // created by a migration
        clearExpiredByTimeout: false, // expired rows are removed by a scheduled job instead
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: 'rl',
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  /**
   * Counts one request against the caller's window: the organization and environment of `viewer`, or
   * `ip` at the Starter limit when the caller has no valid credentials. Used by HTTP and by graphql-ws.
   * `points` above one: a GraphQL query charged its cost (src/http/query-cost.plugin.ts).
   */
  consume(viewer: Viewer | undefined, ip: string, points = 1): Promise<RateLimitOutcome> {
    return this.consumeIn(callerBucket(viewer, ip), points);
  }

  /** Counts one request in `bucket`'s window (an organization's, or a client address's). */
  async consumeIn(bucket: RateBucket, points = 1): Promise<RateLimitOutcome> {
    const { key, limit } = bucket;
    const { consumed, msBeforeNext } = await this.count(limit, key, points);
    const allowed = consumed <= limit;
    if (!allowed) {
      rateLimitRejections.inc({ caller: bucket.caller });
      if (bucket.caller === 'credential') this.refusedUntil.set(key, Date.now() + msBeforeNext);
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - consumed),
      resetSeconds: Math.ceil((Date.now() + msBeforeNext) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
    };
  }

  private count(limit: number, key: string, points: number): Promise<Counted> {
    return new Promise<Counted>((resolve, reject) => {
      const queueKey = `${limit}|${key}`;
      const queue = this.waiting.get(queueKey);
      if (queue) queue.push({ points, resolve, reject });
      else {
        this.waiting.set(queueKey, []);
        void this.countBatch(limit, key, queueKey, [{ points, resolve, reject }]);
      }
    });
  }

  /** One UPSERT for `batch`, then the same for whatever queued meanwhile, until nothing waits. */
  private async countBatch(limit: number, key: string, queueKey: string, batch: Waiter[]): Promise<void> {
    const total = batch.reduce((sum, waiter) => sum + waiter.points, 0);
    try {
      let counted: RateLimiterRes;
      try {
        counted = await this.limiterFor(limit).consume(key, total);
      } catch (rejection) {
        // Over the limit: the library rejects with the counter, which it has incremented all the same.
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        counted = rejection;
      }
      let consumed = counted.consumedPoints - total;
      for (const waiter of batch) {
        consumed += waiter.points;
        waiter.resolve({ consumed, msBeforeNext: counted.msBeforeNext });
      }
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      // Those queued meanwhile would wait for the same unreachable database once more, one time-out after
      // another: they answer 503 now (issue #34 item 4).
      if (isDatabaseUnavailable(error)) {
        for (const waiter of this.waiting.get(queueKey) ?? []) waiter.reject(error);
        this.waiting.set(queueKey, []);
      }
    }
    const next = this.waiting.get(queueKey) ?? [];
    if (next.length === 0) this.waiting.delete(queueKey);
    else {
      this.waiting.set(queueKey, []);
      void this.countBatch(limit, key, queueKey, next);
    }
  }

  /**
   * Whether this process saw `viewer`'s window refused and the window has not ended: its reads then wait for
   * their count instead of running beside it (src/http/rate-limit-overlap.ts).
   */
  knownRefused(viewer: Viewer): boolean {
    const { key } = organizationBucket(viewer.organizationId, viewer.environment, viewer.rateLimitPerMinute);
    const until = this.refusedUntil.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.refusedUntil.delete(key);
    return false;
  }

  middleware() {
    return this.countingMiddleware((req) => callerBucket(req.viewer, req.ip ?? ''));
  }

  /** Counts the request in `bucketOf(req)`, sets the headers, and refuses it (429) when over the limit. */
  countingMiddleware(
    bucketOf: (req: Request) => RateBucket,
    refuse?: (req: Request, res: Response, retryAfterSeconds: number) => void,
  ) {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      let outcome: RateLimitOutcome;
      try {
        outcome = await this.consumeIn(bucketOf(req));
      } catch (error) {
        return next(error);
      }
      setRateLimitHeaders(outcome, (name, value) => res.setHeader(name, value));
      if (outcome.allowed) return next();
      if (!refuse) return next(new RateLimitedError(outcome.retryAfterSeconds));
      res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      refuse(req, res, outcome.retryAfterSeconds);
    };
  }
}

/** The X-RateLimit-* headers of SPEC 8.3 (Express responses and Apollo's header map alike). */
export function setRateLimitHeaders(
  outcome: RateLimitOutcome,
  set: (name: string, value: string) => void,
): void {
  set('X-RateLimit-Limit', String(outcome.limit));
  set('X-RateLimit-Remaining', String(outcome.remaining));
  set('X-RateLimit-Reset', String(outcome.resetSeconds));
}
