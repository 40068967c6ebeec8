import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import net from 'node:net';

export interface ChildServer {
  name: string;
  pid: number;
  baseUrl: string;
  /** Peak resident set size so far (VmHWM) in KiB, or null once the process is gone / off Linux. */
  peakRssKiB(): number | null;
  /** CPU time (user + system) used so far in ms, or null once the process is gone / off Linux. */
  cpuMs(): number | null;
  /** SIGTERM, then SIGKILL if it has not exited after a grace period. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  name: string;
  script: string;
  port: number;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** The Node binary (default: the bench's own, process.execPath). */
  execPath?: string;
  readyPath: string;
  readyTimeoutMs?: number;
  /** Also append everything the child writes (stdout and stderr) to this file (e.g. a `--trace-gc` log). */
  outputFile?: string;
}

const OUTPUT_KEPT = 4000;
const STOP_GRACE_MS = 10_000;

/** A free loopback port (the OS picks one), so the bench never collides with a dev server. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Peak RSS of a process from /proc/<pid>/status (Linux), in KiB. */
export function peakRssOf(pid: number | 'self'): number | null {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Linux reports CPU times in clock ticks; USER_HZ is 100 on every mainstream kernel build. */
const MS_PER_CLOCK_TICK = 10;

/** CPU time (utime + stime, fields 14 and 15 of /proc/<pid>/stat) in ms. */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces: state is [0].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
  } catch {
    return null;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `node <script>` and waits until GET readyPath answers 200; its output is kept for error messages. */
export async function startChild(options: ChildOptions): Promise<ChildServer> {
  const child = spawn(options.execPath ?? process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
    if (options.outputFile) appendFileSync(options.outputFile, chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not start ${options.script}`);

  const baseUrl = `http://127.0.0.1:${options.port}`;
  let stopping: Promise<void> | null = null;
  const server: ChildServer = {
    name: options.name,
    pid,
    baseUrl,
    peakRssKiB: () => (child.exitCode === null && child.signalCode === null ? peakRssOf(pid) : null),
    cpuMs: () => (child.exitCode === null && child.signalCode === null ? cpuMsOf(pid) : null),
    stop: () => {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited(child);
        clearTimeout(timer);
      })();
      return stopping;
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${options.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`,
      );
    try {
      const response = await fetch(baseUrl + options.readyPath);
      await response.arrayBuffer();
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.stop();
  throw new Error(`${options.name} was not ready after ${options.readyTimeoutMs ?? 60_000} ms:\n${output}`);
}
