import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
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

/**
 * Fixed 60-second windows per organization and environment (per IP for requests without valid
 * credentials), shared by /v1, /api and /graphql. Counters live in PostgreSQL through
 * rate-limiter-flexible, so every server process on the database shares them.
 */
export class RateLimiter {
  private readonly limiters = new Map<number, RateLimiterPostgres>();

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
  async consume(viewer: Viewer | undefined, ip: string, points = 1): Promise<RateLimitOutcome> {
    const key = viewer ? `${viewer.organizationId}:${viewer.environment}` : `ip:${ip}`;
    const limit = viewer ? viewer.rateLimitPerMinute : RATE_LIMIT_BY_PLAN[Plan.STARTER];
    let outcome: RateLimiterRes;
    let allowed = true;
    try {
      outcome = await this.limiterFor(limit).consume(key, points);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      outcome = rejection;
      allowed = false;
      rateLimitRejections.inc({ caller: viewer ? 'credential' : 'ip' });
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, outcome.remainingPoints),
      resetSeconds: Math.ceil((Date.now() + outcome.msBeforeNext) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
    };
  }

  middleware() {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      let outcome: RateLimitOutcome;
      try {
        outcome = await this.consume(req.viewer, req.ip ?? '');
      } catch (error) {
        return next(error);
      }
      setRateLimitHeaders(outcome, (name, value) => res.setHeader(name, value));
      if (!outcome.allowed) return next(new RateLimitedError(outcome.retryAfterSeconds));
      next();
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
