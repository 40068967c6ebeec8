/**
 * How long a statement may go without an answer from PostgreSQL before this process gives up on its
 * connection (issue #34 item 4: with every PostgreSQL process frozen, no request was answered at all).
 *
 * PostgreSQL's own `statement_timeout` cancels a statement that runs too long, but only a server that runs
 * can enforce it: a frozen or unreachable server never answers. So every pooled connection also carries a
 * deadline on this side (db/database-timeouts.ts): past it, the connection is destroyed (never handed back
 * mid-statement, which would leave a transaction open for its next user), the statement fails with
 * ETIMEDOUT and the request answers 503 SERVICE_UNAVAILABLE with Retry-After (core/database-outage.ts).
 *
 * A request must answer within a few seconds, a job may run long statements: a statement issued on the
 * request path (inside `runOnRequestPath`, or inside an organization's database session) gets the short
 * deadline, anything else (jobs, start-up, the CLI) the long one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { currentOrganizationSession } from './db-session.js';

const requestPath = new AsyncLocalStorage<true>();

/** Runs `work` (an HTTP request's handling) as request-path work: its statements get the short deadline. */
export function runOnRequestPath<T>(work: () => T): T {
  return requestPath.run(true, work);
}

/**
 * Whether the caller runs on the request path. The HTTP server's callback enters it; a body parser's stream
 * events run in the context the socket had before, so past the parser the organization session (entered
 * after the body) says it instead.
 */
export function onRequestPath(): boolean {
  return requestPath.getStore() === true || currentOrganizationSession() !== undefined;
}
