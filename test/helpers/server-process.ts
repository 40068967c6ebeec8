import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
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

/** A start on the loaded 2-core machine takes several seconds; this bounds a hung one. */
const START_TIMEOUT_MS = 60_000;
/** Starts whose port another program took between `freePort` and the server's listen, tried again on another. */
const PORT_ATTEMPTS = 3;

type Started = { ready: true } | { ready: false; exit: number | string | null };

/** The real server (`node dist/src/main.js`) as a second process on an existing database. */
export class ServerProcess {
  private constructor(
    readonly baseUrl: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
    for (let attempt = 1; ; attempt++) {
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
        // The IPC channel: the server says 'ready' once it listens (src/main.ts). Ready is heard from this child
        // only, never from another program answering on the port (a port taken between freePort and the
        // server's listen once gave a test someone else's server: 401 on every request), and without polling.
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const started = await new Promise<Started>((resolve) => {
        const timer = setTimeout(() => resolve({ ready: false, exit: 'timeout' }), START_TIMEOUT_MS);
        child.on('message', (message) => {
          if (message !== 'ready') return;
          clearTimeout(timer);
          resolve({ ready: true });
        });
        // 'close', not 'exit': the refusal on stderr is read whole first.
        child.once('close', (code, signal) => {
          clearTimeout(timer);
          resolve({ ready: false, exit: code ?? signal });
        });
      });
      if (started.ready) {
        child.disconnect(); // nothing more to hear; the channel would only hold this process's event loop
        return new ServerProcess(`http://127.0.0.1:${port}`, child);
      }
      if (started.exit === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`server did not become ready in ${START_TIMEOUT_MS} ms: ${stderr}`);
      }
      // The server refuses a busy port (src/main.ts): another program took it since freePort; another port.
      if (attempt < PORT_ATTEMPTS && stderr.includes(`port ${port} (HTTP) is already in use`)) continue;
      throw new Error(`server exited with ${started.exit}: ${stderr}`);
    }
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
