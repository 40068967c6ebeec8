import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { check, eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/server-process.js';
import { TEST_SECRETS_KEY } from '../helpers/test-secrets.js';

/**
 * The real server as a child process in its own process group (so a test can kill the whole group, as
 * a crash or `kill -9 -PGID` does), with its log captured. Faults are bounded and loopback only.
 */
export class FaultServer {
  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    private readonly captured: { text: string },
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get output(): string {
    return this.captured.text;
  }

  /** Spawns `node dist/src/main.js` (or `npm run -s serve`), and waits for /health/ready unless told not to. */
  static async start(
    env: Record<string, string | undefined>,
    options: { viaNpm?: boolean; waitReady?: boolean } = {},
  ): Promise<FaultServer> {
    // Never the embedded PostgreSQL's port: seen once in CI, both on one port, the start hung for 90 s.
    const port = await freePort(Number(env.EMBEDDED_PG_PORT ?? 0));
    const [command, args] = options.viaNpm
      ? ['npm', ['run', '-s', 'serve']]
      : [process.execPath, [path.resolve('dist/src/main.js')]];
    const fullEnv: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      SEED_DEMO: 'false',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'info',
      SECRETS_KEY: TEST_SECRETS_KEY,
      ...env,
    };
    for (const [name, value] of Object.entries(fullEnv)) if (value === undefined) delete fullEnv[name];
    const child = spawn(command, args, { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const captured = { text: '' };
    child.stdout?.on('data', (chunk: Buffer) => (captured.text += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (captured.text += chunk.toString()));
    const server = new FaultServer(child, port, captured);
    if (options.waitReady !== false) {
      // A server that never got ready is not returned to the test, so nobody else would stop it.
      await server.waitReady().catch((error: unknown) => {
        server.reap();
        throw error;
      });
    }
    return server;
  }

  async waitReady(timeoutMs = 90_000): Promise<void> {
    // An exit ends the wait at once (returned, not thrown: a throw would only mean "not yet").
    const exitCode = await eventually(
      async () => {
        if (this.child.exitCode !== null) return this.child.exitCode;
        check((await health(this.baseUrl)) === 200, `not ready; output so far: ${this.output}`);
        return null;
      },
      // From 50 ms to 250 ms apart: a start takes 2-60 s on the loaded machine, and a probe every 50 ms cost the
      // test process some 3 s of CPU per start (at most 250 ms later to see it ready).
      { timeout: timeoutMs, interval: 50, maxInterval: 250, what: 'the server to be ready' },
    );
    if (exitCode !== null) throw new Error(`server exited ${exitCode}: ${this.output}`);
  }

  /** Resolves with the exit code (or signal) once the process is gone. */
  exited(): Promise<number | string | null> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null)
      return Promise.resolve(child.exitCode ?? child.signalCode);
    return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  }

  /** kill -9 of the whole process group: node and the PostgreSQL it started die at once. */
  async killGroup(): Promise<void> {
    const gone = this.exited();
    process.kill(-this.pid, 'SIGKILL');
    await gone;
  }

  /** kill -9 of node alone: a PostgreSQL it started keeps running. */
  async killNodeOnly(): Promise<void> {
    const gone = this.exited();
    process.kill(this.pid, 'SIGKILL');
    await gone;
  }

  /** Best effort clean-up after a test: whatever of the group is still alive goes. */
  reap(): void {
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

export async function health(baseUrl: string): Promise<number | null> {
  try {
    return (await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return null;
  }
}
