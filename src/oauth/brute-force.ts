import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from '../core/perf/rate-limiter-postgres.js';
import { RATE_LIMIT_TABLE } from '../http/rate-limit.js';
import { sha256 } from './oauth-secrets.js';
import type { AttemptLimit } from './oauth.settings.js';

export type AttemptOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts attempts at one thing (sign-in, token endpoint) per key, in the shared `rate_limits` table
 * under its own key prefix, so every server process sees the same counts. An attempt is counted
 * before it is checked (`attempt`), so a burst of parallel guesses cannot slip past the limit; a
 * success can then give the point back (`forgive`) or clear the key (`clear`).
 * Keys are hashed: no email address is stored in the counters, and any length fits the key column.
 */
export class AttemptLimiter {
  private readonly limiter: RateLimiterPostgres;

  constructor(pool: pg.Pool, keyPrefix: string, limit: AttemptLimit) {
    this.limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      points: limit.points,
      duration: limit.durationSeconds,
      keyPrefix,
    });
  }

  async attempt(key: string): Promise<AttemptOutcome> {
    try {
      await this.limiter.consume(sha256(key), 1);
      return { allowed: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }

  async forgive(key: string): Promise<void> {
    await this.limiter.reward(sha256(key), 1);
  }

  async clear(key: string): Promise<void> {
    await this.limiter.delete(sha256(key));
  }
}

/** One counter and the key an attempt is counted under. */
export type Attempt = [AttemptLimiter, string];

/**
 * The refusal among several limits that lifts last (all are counted, so each keeps its own tally),
 * or allowed when none refuses.
 */
export async function attemptAll(attempts: Attempt[]): Promise<AttemptOutcome> {
  const outcomes = await Promise.all(attempts.map(([limiter, key]) => limiter.attempt(key)));
  let refusal: AttemptOutcome = { allowed: true };
  for (const outcome of outcomes) {
    if (outcome.allowed) continue;
    if (refusal.allowed || outcome.retryAfterSeconds > refusal.retryAfterSeconds) refusal = outcome;
  }
  return refusal;
}

/** Gives back the point each counter took (the attempt turned out not to be a failure). */
export async function forgiveAll(attempts: Attempt[]): Promise<void> {
  await Promise.all(attempts.map(([limiter, key]) => limiter.forgive(key)));
}
