/**
 * Fault suite (docs/reliability.md): the embedded PostgreSQL after crashes. One data folder, in order:
 * a crash of the whole process group followed by an immediate restart, a node-only kill whose PostgreSQL
 * is adopted and stopped by the next server, and a PostgreSQL killed under a running server.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { processAlive, readPidFile } from '../../src/db/postgres-process.js';
import { freePort } from '../helpers/server-process.js';
import { FaultServer, health, until } from './fault-kit.js';

const dataDir = path.resolve('.data', `faults-embedded-${process.pid}`);
const clusterDir = path.join(dataDir, 'pg');
let env: Record<string, string | undefined>;
const servers: FaultServer[] = [];

async function start(): Promise<FaultServer> {
  const server = await FaultServer.start(env);
  servers.push(server);
  return server;
}

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  env = { DATABASE_URL: undefined, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) };
});
afterAll(() => {
  for (const server of servers) server.reap();
  const left = readPidFile(clusterDir);
  if (left && processAlive(left.pid)) process.kill(left.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('[fault] embedded PostgreSQL', () => {
  // Each test continues from the previous one's server: three server starts in all.
  let server: FaultServer;

  it('starts again at once after kill -9 of the process group (zombie postmaster, stale pid file)', async () => {
    const first = await start();
    const postmaster = readPidFile(clusterDir)!.pid;
    await first.killGroup();
    // No pause: the postmaster may still be a zombie, and its pid file is still there.
    server = await start();
    expect(readPidFile(clusterDir)!.pid).not.toBe(postmaster);
  }, 180_000);

  it('adopts the PostgreSQL a node-only kill left running', async () => {
    const postmaster = readPidFile(clusterDir)!.pid;
    await server.killNodeOnly();
    expect(processAlive(postmaster)).toBe(true);
    server = await start();
    expect(server.output).toContain('Adopting the PostgreSQL');
    expect(readPidFile(clusterDir)!.pid).toBe(postmaster);
  }, 180_000);

  it('restarts a PostgreSQL that dies under a running server (503 meanwhile), and stops it on SIGTERM', async () => {
    const postmaster = readPidFile(clusterDir)!.pid;
    const seen: Array<number | null> = [];
    process.kill(postmaster, 'SIGKILL');
    await until(
      async () => {
        seen.push(await health(server.baseUrl));
        return seen.at(-1) === 200 && seen.includes(503);
      },
      60_000,
      'an outage answered 503, then recovery',
    );
    expect(seen).not.toContain(500);
    await until(() => server.output.includes('PostgreSQL restarted'), 5_000, 'the restart to be logged');
    expect(server.output).toContain('PostgreSQL exited unexpectedly');
    const restarted = readPidFile(clusterDir)!.pid;
    expect(restarted).not.toBe(postmaster);

    // The adopted-then-restarted cluster is this server's: a clean stop stops it.
    process.kill(server.pid, 'SIGTERM');
    expect(await server.exited()).toBe(0);
    await until(() => !processAlive(restarted), 15_000, 'the PostgreSQL to stop with the server');
    expect(readPidFile(clusterDir)).toBeNull();
  }, 180_000);
});
