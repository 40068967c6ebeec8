import type { NextFunction, Request, Response } from 'express';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';
import { RATE_LIMIT_BY_PLAN, Plan } from '../organizations/organization.entity.js';

const WINDOW_SECONDS = 60;
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

  middleware() {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      const viewer = req.viewer;
      const key = viewer ? `${viewer.organizationId}:${viewer.environment}` : `ip:${req.ip}`;
      const limit = viewer ? viewer.rateLimitPerMinute : RATE_LIMIT_BY_PLAN[Plan.STARTER];
      let outcome: RateLimiterRes;
      let allowed = true;
      try {
        outcome = await this.limiterFor(limit).consume(key, 1);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        outcome = rejection;
        allowed = false;
      }
      const resetSeconds = Math.ceil((Date.now() + outcome.msBeforeNext) / 1000);
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, outcome.remainingPoints)));
      res.setHeader('X-RateLimit-Reset', String(resetSeconds));
      if (!allowed) return next(new RateLimitedError(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000))));
      next();
    };
  }
}
