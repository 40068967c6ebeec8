import pg from 'pg';
import { onRequestPath } from '../core/database-deadline.js';

/**
 * Every way this process waits for PostgreSQL is bounded (issue #34 item 4; docs/reliability.md):
 * - connect: a new connection, or a free one from a full pool, within `connectTimeoutMs` (pg's
 *   connectionTimeoutMillis covers both), else "timeout exceeded when trying to connect" / "Connection
 *   terminated due to connection timeout";
 * - statement: PostgreSQL cancels a statement past `statementTimeoutMs` (57014);
 * - no answer: a statement on the request path without an answer within `requestQueryTimeoutMs`, any other
 *   within the statement timeout plus a margin, destroys its connection (core/database-deadline.ts).
 * All of them answer 503 SERVICE_UNAVAILABLE with Retry-After on the API (core/database-outage.ts).
 */
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './database-defaults.js';

export { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts };

/** Past the server's own statement_timeout, the server has had its chance to cancel cleanly. */
const BACKGROUND_MARGIN_MS = 5_000;

/** The error a statement fails with when the server gave no answer in time (ETIMEDOUT: an outage, 503). */
export class DatabaseDeadlineError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(readonly afterMs: number) {
    super(`The database did not answer within ${afterMs} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * Wraps the client's `query` with the no-answer deadline. Cursors (submittables) read at their consumer's
 * pace and keep only the server's statement timeout.
 */
export function guardQueries(client: pg.Client, timeouts: DatabaseTimeouts): void {
  const query = client.query.bind(client) as QueryFunction;
  const guarded: QueryFunction = (...args) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first.submit === 'function') return query(...args);
    const limit = onRequestPath()
      ? timeouts.requestQueryTimeoutMs
      : timeouts.statementTimeoutMs + BACKGROUND_MARGIN_MS;
    // Destroyed, not handed back: its statement (maybe inside a transaction) is still pending at the server.
    const timer = setTimeout(() => client.connection.stream.destroy(new DatabaseDeadlineError(limit)), limit);
    timer.unref();
    const clear = () => clearTimeout(timer);
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        clear();
        (last as QueryFunction)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(clear, clear);
    else clear();
    return result;
  };
  Object.assign(client, { query: guarded });
}

/** Options of a pg pool (the plain one, and the ORM's through its driverOptions) with the timeouts. */
export function timedPoolOptions(timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): pg.PoolConfig {
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
  };
}

/** Every client the pool connects gets the no-answer deadline before its first use. */
export function guardPool(pool: pg.Pool, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): pg.Pool {
  pool.on('connect', (client) => guardQueries(client as unknown as pg.Client, timeouts));
  return pool;
}

/** A plain pool with the timeouts (the job queue, the rate limiter, readiness). */
export function openTimedPool(
  connectionString: string,
  max: number,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): pg.Pool {
  return guardPool(new pg.Pool({ connectionString, max, ...timedPoolOptions(timeouts) }), timeouts);
}
