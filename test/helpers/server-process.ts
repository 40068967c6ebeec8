import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { check, eventually } from './eventually.js';
import { TEST_SECRETS_KEY } from './test-secrets.js';

/**
 * A free loopback port, from the OS, other than `taken`: a port chosen earlier but not bound yet (say, the
 * EMBEDDED_PG_PORT of a server about to start) is free to the OS and may be handed out again.
 */
export async function freePort(...taken: number[]): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: chosen } = server.address() as { port: number };
        server.close(() => resolve(chosen));
      });
    });
    if (!taken.includes(port)) return port;
  }
}

/** The real server (`node dist/src/main.js`) as a second process on an existing database. */
export class ServerProcess {
  private constructor(
    readonly baseUrl: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [path.resolve('dist/src/main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        SEED_DEMO: 'false',
        RUN_WORKER: 'false',
        LOG_LEVEL: 'warn',
        SECRETS_KEY: TEST_SECRETS_KEY,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    // A bound in time, not in attempts: on a loaded 2-core machine a start takes several seconds. An exit
    // ends the wait at once (returned: a throw would only mean "not yet").
    const exitCode = await eventually(
      async () => {
        if (child.exitCode !== null) return child.exitCode;
        check((await fetch(`${baseUrl}/health/ready`).catch(() => null))?.ok, 'not ready');
        return null;
      },
      // 20 ms apart at first, then up to 250 ms (a start of many seconds probed every 20 ms cost seconds of CPU).
      { timeout: 60_000, maxInterval: 250, what: 'the server to be ready' },
    ).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready: ${stderr}`, { cause: error });
    });
    if (exitCode !== null) throw new Error(`server exited with ${exitCode}: ${stderr}`);
    return new ServerProcess(baseUrl, child);
  }

  /** SIGKILL, as in a crash: no clean-up of any kind. Resolves once the process is gone. */
  kill(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill('SIGKILL');
    });
  }

  /** SIGTERM and wait for the clean exit; returns the exit code. */
  stop(): Promise<number | null> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve(this.child.exitCode);
      this.child.once('exit', (code) => resolve(code));
      this.child.kill('SIGTERM');
    });
  }
}
