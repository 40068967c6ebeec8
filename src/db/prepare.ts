import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { openTimedPool } from './database-timeouts.js';
import type { AppConfig } from '../config.js';
import { mkdirSync } from 'node:fs';
import { claimDataDir } from './data-dir-lock.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
import { applyRowLevelSecurity } from './row-level-security.js';

export const EMBEDDED_DATABASE_NAME = 'msp';

export interface PreparedDatabase {
  url: string;
  orm: MikroORM;
  /** A plain pool for the job queue and the rate limiter. */
  pool: pg.Pool;
  /** Set when this process started the embedded PostgreSQL (and so must stop it). */
  embedded: EmbeddedDatabase | null;
  /** The ORM's and the plain pool's connections (not the embedded server). */
  closePools(): Promise<void>;
  close(): Promise<void>;
}

export interface PrepareOptions {
  log: (message: string) => void;
  /** Events of the embedded PostgreSQL an operator should see (restarts, adoption); default: `log`. */
  notice?: (message: string) => void;
  onQuery?: (sql: string) => void;
  poolMax?: number;
  /** A server (not the CLI): refuses a data folder another server runs on, unless SHARE_DATA_DIR is set. */
  claimDataDir?: boolean;
}

/**
 * A pool whose errors are logged: an idle client dropped by the server (restart, network) must not crash the
 * process, and graphile-worker, given a pool without these listeners, warns and installs its own.
 */
export function logPoolErrors(pool: pg.Pool, log: (message: string) => void): pg.Pool {
  pool.on('error', (error) => log(`database pool: ${error.message}`));
  pool.on('connect', (client) => client.on('error', (error) => log(`database client: ${error.message}`)));
  return pool;
}

/**
 * Every database's schema, in its one order (the server and CLI here, the tests' template and fault
 * databases): our migrations, the job queue's, then row-level security over both (policies for new tables,
 * grants for the app role; always: policies are inert for the service role, and enqueue_job is how every
 * path queues jobs). `pool`: one with logPoolErrors.
 */
export async function migrateSchema(orm: MikroORM, pool: pg.Pool, appRole: string): Promise<void> {
  const [{ migrate }, { runMigrations }] = await Promise.all([import('./orm.js'), import('graphile-worker')]);
  await migrate(orm);
  await runMigrations({ pgPool: pool });
  await applyRowLevelSecurity(pool, appRole);
}

/**
 * The one way the server, the CLI and the bench reach their database: DATABASE_URL if given,
 * else the embedded PostgreSQL under DATA_DIR (joined if another process already runs it);
 * then the schema migrations and the job queue's own migrations.
 */
export async function prepareDatabase(config: AppConfig, options: PrepareOptions): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    if (options.claimDataDir && !config.shareDataDir) {
      mkdirSync(config.dataDir, { recursive: true });
      claimDataDir(config.dataDir, config.publicUrl);
    }
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPostgresPort,
      database: EMBEDDED_DATABASE_NAME,
      log: options.log,
      notice: options.notice,
    });
    url = embedded.url;
  }
  // MikroORM (most of this module's loading) only now: a start refused above (another server's data folder, a
  // busy embedded PostgreSQL port) says so without loading it (src/main.ts).
  const { openOrm } = await import('./orm.js');
  const orm = await openOrm({
    databaseUrl: url,
    onQuery: options.onQuery,
    poolMax: options.poolMax,
    appRole: config.enforceRowLevelSecurity ? config.appDatabaseRole : undefined,
    timeouts: config.databaseTimeouts,
  });
  const pool = logPoolErrors(openTimedPool(url, 10, config.databaseTimeouts), options.log);
  try {
    await migrateSchema(orm, pool, config.appDatabaseRole);
  } catch (error) {
    await Promise.allSettled([orm.close(), pool.end()]);
    await embedded?.stop();
    throw error;
  }
  return {
    url,
    orm,
    pool,
    embedded: embedded?.startedHere ? embedded : null,
    closePools: async () => {
      await Promise.allSettled([orm.close(), pool.end()]);
    },
    close: async () => {
      await Promise.allSettled([orm.close(), pool.end()]);
      if (embedded?.startedHere) await embedded.stop();
    },
  };
}
