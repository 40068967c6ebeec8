import type { MikroORM } from '@mikro-orm/postgresql';
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { applyRowLevelSecurity } from '../src/db/row-level-security.js';
import { DEFAULT_APP_DATABASE_ROLE } from '../src/core/db-session.js';
import type { BenchConfig } from './config.js';

export const BENCH_DATABASE = 'bench';

export interface BenchDatabase {
  /** URL of the freshly created `bench` database. */
  url: string;
  orm: MikroORM;
  pool: pg.Pool;
  /** Where the PostgreSQL server came from, for the report. */
  source: string;
  close(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops and recreates the `bench` database, so every run starts from the same empty schema. */
async function recreateDatabase(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // FORCE ends connections a killed earlier run may have left behind.
    await admin.query(`drop database if exists "${BENCH_DATABASE}" with (force)`);
    await admin.query(`create database "${BENCH_DATABASE}"`);
  } finally {
    await admin.end();
  }
}

/**
 * The bench's PostgreSQL: BENCH_DATABASE_URL's server if given, else an embedded one in its own folder
 * and port (durability off: nothing here needs to survive a crash). Then the schema and the job
 * queue's migrations, as the server itself would run them.
 */
export async function openBenchDatabase(
  config: BenchConfig,
  options: {
    onQuery: (sql: string) => void;
    log: (message: string) => void;
    /** Keep an existing `bench` database (its data and schema; new migrations still apply) instead of recreating it. */
    keep?: boolean;
  },
): Promise<BenchDatabase> {
  let adminUrl: string;
  let stopServer: () => Promise<void> = async () => undefined;
  let source: string;
  if (config.databaseUrl) {
    adminUrl = withDatabase(config.databaseUrl, 'postgres');
    source = 'BENCH_DATABASE_URL';
  } else {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.postgresPort,
      database: 'postgres',
      fast: true,
    });
    adminUrl = embedded.url;
    stopServer = () => embedded.stop();
    const port = new URL(embedded.url).port;
    source = `embedded PostgreSQL in ${config.dataDir} (port ${port}${embedded.startedHere ? '' : ', reused'})`;
  }

  let closing = false;
  let orm: MikroORM | null = null;
  let pool: pg.Pool | null = null;
  try {
    if (options.keep) await ensureDatabase(adminUrl, BENCH_DATABASE);
    else await recreateDatabase(adminUrl);
    const url = withDatabase(adminUrl, BENCH_DATABASE);
    orm = await openOrm({ databaseUrl: url, onQuery: options.onQuery, poolMax: 10 });
    pool = new pg.Pool({ connectionString: url, max: 10 });
    // Connections still closing when the server stops report "terminating connection": expected then.
    const logPoolError = (error: Error) => {
      if (!closing) options.log(`bench pool: ${error.message}`);
    };
    pool.on('error', logPoolError);
    pool.on('connect', (client) => client.on('error', logPoolError));
    await migrate(orm);
    await runMigrations({ pgPool: pool });
    await applyRowLevelSecurity(pool, DEFAULT_APP_DATABASE_ROLE);
    const openedOrm = orm;
    const openedPool = pool;
    return {
      url,
      orm: openedOrm,
      pool: openedPool,
      source,
      close: async () => {
        closing = true;
        await Promise.allSettled([openedOrm.close(), openedPool.end()]);
        await stopServer();
      },
    };
  } catch (error) {
    closing = true;
    await Promise.allSettled([orm?.close(), pool?.end()]);
    await stopServer();
    throw error;
  }
}

/**
 * VACUUM (and ANALYZE) a table until its visibility map covers it, as autovacuum eventually would on a quiet
 * table: then index-only scans read no heap. A VACUUM cannot mark pages all-visible while any session holds a
 * snapshot older than their rows (an open transaction, a long query, another database's ANALYZE), and the
 * bench's scenarios run right after others; once, an unnoticed holder made the organization enrollment trend read
 * 16,000 heap pages and measure 53 ms where the index alone takes 18 ms. Tries for `seconds`, then goes on
 * saying what held it back.
 */
export async function vacuumUntilVisible(
  pool: pg.Pool,
  table: string,
  log: (message: string) => void,
  seconds = 60,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    await pool.query(`vacuum analyze "${table.replace(/"/g, '""')}"`);
    const { rows } = await pool.query<{ pages: number; visible: number }>(
      'select relpages as pages, relallvisible as visible from pg_class where oid = $1::regclass',
      [table],
    );
    const { pages, visible } = rows[0] ?? { pages: 0, visible: 0 };
    if (pages === 0 || visible / pages >= 0.99) return;
    if (Date.now() > deadline) {
      const holders = await pool.query<{ who: string }>(
        `select coalesce(nullif(application_name, ''), backend_type) || ' (' || datname || ', ' || state || '): '
                || left(query, 80) as who
           from pg_stat_activity where backend_xmin is not null and pid <> pg_backend_pid()`,
      );
      log(
        `${table}: ${visible} of ${pages} pages all-visible after ${seconds} s of VACUUM; snapshots held by ` +
          (holders.rows.map((row) => row.who).join('; ') || 'nobody now'),
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
