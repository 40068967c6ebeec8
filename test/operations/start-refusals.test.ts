/**
 * Issue #33 item 1: a start that cannot work says why in one line and exits non-zero, instead of hanging on
 * a busy port or joining another server's data folder. Real server processes on loopback.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectionUrl } from '../../src/db/embedded-postgres.js';
import { readPidFile, processAlive } from '../../src/db/postgres-process.js';
import { FaultServer } from '../faults/fault-server.js';
import { freePort } from '../helpers/server-process.js';

const dataDirs: string[] = [];
const servers: FaultServer[] = [];
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msp-start-'));
  dataDirs.push(dir);
  return dir;
}

/** Another program holding `port` (on `host`, or every address). */
function occupy(port: number, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const holder = createServer();
    holder.once('error', reject);
    holder.listen({ port, host }, () => resolve(holder));
  });
}

async function refusal(env: Record<string, string | undefined>, port?: number): Promise<string> {
  const server = await FaultServer.start(port ? { ...env, PORT: String(port) } : env, { waitReady: false });
  servers.push(server);
  expect(await server.exited()).toBe(1);
  const lines = server.output.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(server.output).not.toMatch(/\n\s+at |Error:/);
  return lines[0];
}

/**
 * An organization in the embedded PostgreSQL of a running server (its superuser, the database the server uses:
 * EMBEDDED_DATABASE_NAME of src/db/prepare.ts, which this file does not import: it would evaluate the ORM).
 */
async function addOrganization(pgPort: number, slug: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(pgPort, 'msp') });
  await client.connect();
  try {
    await client.query(
      `insert into organizations (id, slug, name, plan, created_at) values (gen_random_uuid(), $1, $1, 'starter', now())`,
      [slug],
    );
  } finally {
    await client.end();
  }
}

afterAll(() => {
  for (const server of servers) server.reap();
  for (const dir of dataDirs) {
    const left = readPidFile(path.join(dir, 'pg'));
    if (left && processAlive(left.pid)) process.kill(left.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('start-up refusals', () => {
  it('a Microsoft endpoint over http: exit 1, one line naming the variable and NODE_EXTRA_CA_CERTS', async () => {
    const line = await refusal({ MICROSOFT_GRAPH_URL: 'http://graph.example.test' });
    expect(line).toMatch(/^Cannot start: MICROSOFT_GRAPH_URL must use https:\/\/ .*NODE_EXTRA_CA_CERTS=/);
  });

  it('a busy HTTP port: exit 1, one line naming the port and PORT=', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    try {
      const line = await refusal({}, port);
      expect(line).toBe(
        `Cannot start: port ${port} (HTTP) is already in use by another program; choose another with ` +
          `PORT=… (e.g. PORT=${port + 1} npm start)`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it('a busy embedded PostgreSQL port: exit 1, one line naming the port and EMBEDDED_PG_PORT=', async () => {
    const pgPort = await freePort();
    const holder = await occupy(pgPort, '127.0.0.1');
    try {
      const line = await refusal({
        DATABASE_URL: undefined,
        DATA_DIR: tempDataDir(),
        EMBEDDED_PG_PORT: String(pgPort),
      });
      expect(line).toContain(`Cannot start: port ${pgPort} (embedded PostgreSQL) is already in use`);
      expect(line).toContain('EMBEDDED_PG_PORT=');
    } finally {
      holder.close();
    }
  }, 60_000);

  it('a second server on one data folder refuses, naming the running one’s pid; SHARE_DATA_DIR joins', async () => {
    const env = {
      DATABASE_URL: undefined,
      DATA_DIR: tempDataDir(),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      // Servers and the CLI alike (the CLI's default would seed the demo organization on this fresh database).
      SEED_DEMO: 'false',
    };
    const first = await FaultServer.start(env);
    servers.push(first);
    // The CLI below needs one organization: a row, not the demo seed (some 4 s of the server's CPU for it).
    await addOrganization(Number(env.EMBEDDED_PG_PORT), 'port-check');
    const line = await refusal(env);
    expect(line).toMatch(
      new RegExp(`^Cannot start: another server \\(pid ${first.pid}\\) is running on the data folder`),
    );
    expect(line).toContain('DATA_DIR=');
    // The CLI on the same data folder links to that server, with no PORT of its own (issue #33 item 5).
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: 'silent' };
    for (const name of ['DATABASE_URL', 'PORT', 'PUBLIC_URL', 'NODE_OPTIONS']) delete cliEnv[name];
    const cli = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        [
          path.resolve('dist/src/cli/main.js'),
          'oauth-clients',
          'create',
          '--org',
          'port-check',
          '--name',
          'Port check',
          '--redirect-uri',
          'http://localhost:8080/callback',
        ],
        { env: cliEnv, timeout: 60_000 },
        (_error, _stdout, stderr) => resolve(stderr),
      ),
    );
    expect(cli).toContain(`http://localhost:${first.port}/oauth/authorize?`);
    // The documented way to run two servers on one database still works.
    const second = await FaultServer.start({ ...env, SHARE_DATA_DIR: 'true' });
    servers.push(second);
    expect(await fetch(`${second.baseUrl}/health/ready`).then((r) => r.status)).toBe(200);
    process.kill(second.pid, 'SIGTERM');
    expect(await second.exited()).toBe(0);
    process.kill(first.pid, 'SIGTERM');
    expect(await first.exited()).toBe(0);
  }, 240_000);
});
