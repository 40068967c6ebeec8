/**
 * Written against kysely 0.29.6, the copy @mikro-orm/postgresql 7.2.1 loads (checked at start-up:
 * ./versions.ts).
 *
 * Why: Kysely's PostgreSQL driver calls the pool's `onReserveConnection` hook after taking a client from pg's
 * pool and, when the hook throws, neither uses nor releases that connection: every failed session-settings
 * statement (src/core/db-session.ts: a database blip, a dropped role) would leak one pooled connection for
 * good.
 *
 * The internals: `PostgresConnection` releases its client through a method keyed by a module-private
 * `Symbol()` (`PRIVATE_RELEASE_METHOD` in dialect/postgres/postgres-driver.js), the only symbol-keyed
 * function of its prototype; it is found by that property. A release that adds another symbol-keyed method
 * (an `[Symbol.asyncDispose]`, say) would have this call the wrong one; one that renames the class's layout
 * would make it a no-op and bring the leak back; one that releases the connection itself after a failed hook
 * would make this a second release of the same pg client (which pg refuses with an error).
 * test/rls/session-settings-failure.test.ts proves the pool keeps working after failed reservations;
 * test/core/perf-tricks.test.ts checks the method against the installed Kysely.
 */
import type { DatabaseConnection } from 'kysely';

/** Returns a reserved connection to its pool (pg's pool drops a client whose socket failed). */
export function releaseReservedConnection(connection: DatabaseConnection): void {
  const prototype = Object.getPrototypeOf(connection) as Record<symbol, unknown>;
  const release = Object.getOwnPropertySymbols(prototype)
    .map((key) => prototype[key])
    .find((value): value is () => void => typeof value === 'function');
  release?.call(connection);
}
