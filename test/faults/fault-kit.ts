import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { check, eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/server-process.js';
import { startSuite } from '../helpers/suite.js';
import { createTestDatabase, TestApp } from '../helpers/test-app.js';
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
      { timeout: timeoutMs, interval: 50, what: 'the server to be ready' },
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

/**
 * The set-up of a fault test that kills a real server mid-job and lets another process take over: a database of
 * its own with an organization (`setup`, the test's own app for fixtures and checks, running no jobs), the
 * server as a child process with its worker on, and a resumer that takes over dead workers' jobs. Registers
 * its own beforeAll/afterAll, which reap whatever is still running:
 *
 *   const suite = faultSuite();
 *   ... server = await suite.startServer(); ... await server.killGroup(); await suite.startResumer();
 */
export interface FaultSuite {
  /** An app on the suite's database, running no jobs: fixtures and checks. */
  readonly setup: TestApp;
  readonly org: OrganizationWithKeys;
  /** The real server on the suite's database with its worker on (`RUN_WORKER=true`), plus `env`. */
  startServer(env?: Record<string, string>): Promise<FaultServer>;
  /** Another process on the same database that takes dead workers' jobs over (released after 1 s). */
  startResumer(): Promise<TestApp>;
}

export function faultSuite(): FaultSuite {
  let setup: TestApp | undefined;
  let org: OrganizationWithKeys | undefined;
  let resumer: TestApp | undefined;
  const servers: FaultServer[] = [];
  beforeAll(async () => {
    ({ app: setup, org } = await startSuite({ databaseUrl: await createTestDatabase() }));
  });
  afterAll(async () => {
    for (const server of servers) server.reap();
    await resumer?.stop();
    await setup?.stop();
  });
  const started = (): TestApp => {
    if (!setup) throw new Error('faultSuite(): used before its beforeAll ran');
    return setup;
  };
  return {
    get setup() {
      return started();
    },
    get org() {
      started();
      return org!;
    },
    async startServer(env = {}) {
      const server = await FaultServer.start({
        DATABASE_URL: started().databaseUrl,
        RUN_WORKER: 'true',
        ...env,
      });
      servers.push(server);
      return server;
    },
    async startResumer() {
      resumer = await TestApp.start({
        databaseUrl: started().databaseUrl,
        jobs: true,
        jobStaleAfterMs: 1_000,
      });
      return resumer;
    },
  };
}

/** A user import of `rows` new users of `tenant` (CSV through REST), queued: its id. */
export async function submitUserImport(
  app: TestApp,
  org: OrganizationWithKeys,
  tenant: Tenant,
  rows: number,
): Promise<string> {
  const csv = `UserPrincipalName,FirstName,LastName\n${Array.from(
    { length: rows },
    (_, i) => `user${i}@${tenant.domain},User,${i}`,
  ).join('\n')}\n`;
  const submitted = await app.request<Envelope<{ operation: { id: string } }>>(
    'POST',
    '/api/user-management-identity/users/bulk',
    { key: org.keys.write, rawBody: csv, headers: { 'content-type': 'text/csv', 'X-Tenant-Id': tenant.id } },
  );
  expect(submitted.status).toBe(202);
  return submitted.body.data.operation.id;
}

export { userImportRow, type UserImportRow } from '../helpers/user-import-row.js';

/**
 * Holds a lock in a transaction of its own connection while `act` runs, then rolls it back, whatever
 * happened. `act` gets `waitedOn(what)`: resolves once another session of this database waits for a lock
 * (`relation`: for a table lock only), which is how a test stops a job at an exact point before killing it.
 */
export async function whileLocked(
  databaseUrl: string,
  lock: { sql: string; params?: unknown[]; relation?: boolean },
  act: (waitedOn: (what: string, timeoutMs?: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const waitedOn = (what: string, timeoutMs = 60_000) =>
    eventually(
      async () => {
        const { rows } = await client.query(
          `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
              and wait_event_type = 'Lock' ${lock.relation ? "and wait_event = 'relation'" : ''}`,
        );
        expect(rows).toHaveLength(1);
      },
      { timeout: timeoutMs, what },
    );
  try {
    await client.query('begin');
    await client.query(lock.sql, lock.params);
    await act(waitedOn);
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}
