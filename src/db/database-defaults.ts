/**
 * The database settings' defaults, in a module that imports nothing: src/config.ts reads them, and the server
 * checks its configuration before it loads pg or Kysely (src/main.ts). database-timeouts.ts and
 * core/db-session.ts re-export them where they were.
 */
export interface DatabaseTimeouts {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  requestQueryTimeoutMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutMs: 3_000,
  statementTimeoutMs: 30_000,
  requestQueryTimeoutMs: 3_000,
};

/** The role the request path acts as unless APP_DATABASE_ROLE names another. */
export const DEFAULT_APP_DATABASE_ROLE = 'msp_app';
