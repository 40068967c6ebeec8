/**
 * Row-level security settings of a request (docs/security-model.md, "Row-level security").
 *
 * The request path runs inside `runInOrganizationSession(scope, …)`; every pooled ORM connection it
 * reserves (autocommit statement or transaction, ORM query or raw `em.execute`) is switched, before its
 * first statement, to the non-superuser application role with `app.organization_id` / `app.environment`
 * set, so PostgreSQL's policies filter whatever SQL the code writes. Code outside a session (start-up,
 * authentication before an organization is known, jobs, the outbox fan-out) runs as the connecting
 * service role, which bypasses row-level security.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection } from 'kysely';
import type { Scope } from './scope.js';
import { releaseReservedConnection } from './perf/kysely-release-connection.js';

/** The role the request path acts as unless APP_DATABASE_ROLE names another (db/database-defaults.ts). */
export { DEFAULT_APP_DATABASE_ROLE } from '../db/database-defaults.js';

const sessions = new AsyncLocalStorage<Scope>();

/** Runs `work` (and everything it starts) with the database settings of one organization and environment. */
export function runInOrganizationSession<T>(scope: Scope, work: () => T): T {
  return sessions.run({ organizationId: scope.organizationId, environment: scope.environment }, work);
}

/**
 * Runs `work` as the service role whatever the caller's context: for work started by an event of a socket
 * (a job woken by NOTIFY, a LISTEN callback), which inherits the context the socket was opened in — possibly
 * some request's session.
 */
export function runOutsideOrganizationSession<T>(work: () => T): T {
  return sessions.exit(work);
}

/** The scope of the session the caller runs in, if any. */
export function currentOrganizationSession(): Scope | undefined {
  return sessions.getStore();
}

/**
 * An async iterator whose every step runs in the session: a subscription's events are resolved when
 * graphql-ws pulls them, outside the call that created the iterator.
 */
export function iterateInOrganizationSession<T>(
  scope: Scope,
  source: AsyncIterator<T>,
): AsyncIterableIterator<T> {
  const inSession = <R>(work: () => R) => runInOrganizationSession(scope, work);
  return {
    next: (...args: [] | [unknown]) => inSession(() => source.next(...args)),
    return: (value?: unknown) =>
      inSession(() =>
        source.return
          ? source.return(value as T)
          : Promise.resolve({ done: true as const, value: value as T }),
      ),
    throw: (error?: unknown) =>
      inSession(() => (source.throw ? source.throw(error) : Promise.reject(error as Error))),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

const SERVICE_STATE = 'service';

/**
 * The ORM pool's `onReserveConnection` hook: one statement per reservation that changes the connection's
 * settings, none when the connection already carries the settings the caller needs (remembered per
 * connection; nothing else in the code base changes a pooled connection's role or these settings at
 * session level, and `set_config(…, false)` outside a transaction cannot be rolled back).
 */
export function sessionSettingsOnReserve(
  appRole: string,
  log?: (message: string) => void,
): (connection: DatabaseConnection) => Promise<void> {
  const applied = new WeakMap<DatabaseConnection, string>();
  return async (connection) => {
    const scope = sessions.getStore();
    const wanted = scope ? `${scope.organizationId}|${scope.environment}` : SERVICE_STATE;
    if (applied.get(connection) === wanted) return;
    // Forget first: if the statement fails midway, the next reservation sets everything again.
    applied.delete(connection);
    const parameters = scope ? [scope.organizationId, scope.environment, appRole] : ['', '', 'none'];
    const sql =
      "select set_config('app.organization_id', $1, false), set_config('app.environment', $2, false), " +
      "set_config('role', $3, false)";
    try {
      await connection.executeQuery(CompiledQuery.raw(sql, parameters));
    } catch (error) {
      // Kysely's driver (0.29) neither uses nor releases a connection whose reserve hook threw: give it back
      // to the pool ourselves, or every failure (a database blip, a dropped role) would leak one for good
      // (through Kysely's private release method: src/core/perf/kysely-release-connection.ts).
      releaseReservedConnection(connection);
      throw error;
    }
    // Tagged apart from "[query]": whether a reservation needs it depends on the pool's history, not on the
    // request, so the per-list statement counts leave it out (docs/benchmarks.md measures it on its own).
    log?.(`[session] ${scope ? 'organization' : 'service'} settings`);
    applied.set(connection, wanted);
  };
}
