/**
 * Whether an error means "the database cannot be reached right now" (as opposed to a bug or a bad
 * statement): the connection was refused or dropped, the pool timed out, or the server is shutting down,
 * starting up or out of connections. These become 503 SERVICE_UNAVAILABLE with Retry-After, not 500.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATE classes and codes of an unavailable server (PostgreSQL appendix A). */
function unavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin_shutdown (fast or smart shutdown)
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up, recovering)
    code === '53300' || // too_many_connections
    code === '57014' // query_canceled: statement_timeout (db/database-timeouts.ts), or an operator's cancel
  );
}

const MESSAGES = [
  /^Connection terminated/i, // pg: the server went away mid-query
  /timeout exceeded when trying to connect/i, // pg-pool: no connection within the timeout
  /Client has encountered a connection error and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || unavailableSqlState(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    const next = current as { cause?: unknown; originalError?: unknown };
    current = next.cause ?? next.originalError;
  }
  return false;
}
