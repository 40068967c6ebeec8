import { spawn, type ChildProcess } from 'node:child_process';
import { answers, sleep, waitForExit, type ServerUser } from './postgres-process.js';
import { serverSpawnOptions } from './postgres-initdb.js';

/** Starting and stopping one postmaster of the embedded PostgreSQL (embedded-postgres.ts supervises it). */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface PostmasterOptions {
  postgres: string;
  clusterDir: string;
  port: number;
  url: string;
  /** Trade durability for speed (tests and benchmarks only). */
  fast?: boolean;
  user: ServerUser | null;
  log: (message: string) => void;
}

/** Starts the postmaster as a child and resolves with it once it answers a query. */
export async function spawnPostmaster(options: PostmasterOptions): Promise<ChildProcess> {
  // TCP on loopback only, and no Unix-domain socket: nothing here connects through one, and its lock file in
  // /tmp names the postmaster's pid, so after a kill -9 a not-yet-reaped (zombie) postmaster made the next
  // start fail ("lock file /tmp/.s.PGSQL.<port>.lock already exists") although its pid file was cleaned up.
  const flags = [
    '-c',
    'max_connections=300',
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ];
  if (options.fast)
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const child = spawn(
    options.postgres,
    ['-D', options.clusterDir, '-p', String(options.port), ...flags],
    serverSpawnOptions(options.user),
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-4_000);
    options.log(text.trimEnd());
  });
  let exited: string | null = null;
  child.once('error', (error) => (exited = error.message));
  child.once('exit', (code, signal) => (exited ??= `exit ${code ?? signal}`));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(options.url, 500))) {
    if (exited !== null || Date.now() > deadline) {
      if (exited === null) child.kill('SIGQUIT');
      throw new Error(
        `Embedded PostgreSQL failed to start on port ${options.port} (${exited ?? 'timed out'}; is the port ` +
          `in use? set EMBEDDED_PG_PORT): ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
      );
    }
    await sleep(100);
  }
  return child;
}

/**
 * Fast shutdown (SIGINT); after STOP_TIMEOUT_MS an immediate one (SIGQUIT). `child` when the postmaster is this
 * process's child (its exit event is waited for), else its pid is polled.
 */
export async function stopPostmaster(
  pid: number,
  child: ChildProcess | null,
  notice: (message: string) => void,
): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  const gone = child
    ? new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null
          ? resolve()
          : child.once('exit', () => resolve()),
      )
    : null;
  const waitGone = (ms: number) =>
    gone
      ? new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          void gone.then(() => {
            clearTimeout(timer);
            resolve(true);
          });
        })
      : waitForExit(pid, ms);
  signal('SIGINT');
  if (!(await waitGone(STOP_TIMEOUT_MS))) {
    notice(`PostgreSQL did not stop within ${STOP_TIMEOUT_MS / 1000} s; stopping it immediately`);
    signal('SIGQUIT');
    await waitGone(5_000);
  }
}
