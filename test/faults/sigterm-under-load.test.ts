/**
 * Fault suite (docs/reliability.md): SIGTERM while clients keep writing. Every write the server
 * acknowledged (201) is in the database afterwards, and the process exits 0 within the shutdown bound.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { FaultServer } from './fault-server.js';

const WRITERS = 8;
/** A writer's pause after a refused connection: the load has met the stop by then, and keeps meeting it. */
const REFUSED_PAUSE_MS = 50;
const SHUTDOWN_TIMEOUT_MS = 5_000;
let databaseUrl: string;
/** The fixtures' and checks' server on the file's database, built in the worker's realm (realm-suite.ts). */
let setup: RealmApp;
let org: OrganizationWithKeys;
let server: FaultServer | undefined;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  setup = await realmApp({ databaseUrl });
  org = await createOrganizationWithKeys(setup);
});
afterAll(async () => {
  server?.reap();
  await setup.stop();
});

describe('[fault] SIGTERM under load', () => {
  it('loses no acknowledged write and exits within the bound', async () => {
    server = await FaultServer.start({
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    const running = server;
    const acknowledged: string[] = [];
    let refused = 0;
    let stopped = false;
    const writer = async (writerIndex: number) => {
      for (let n = 0; !stopped; n++) {
        try {
          const response = await fetch(`${running.baseUrl}/v1/webhooks`, {
            method: 'POST',
            headers: { authorization: `Bearer ${org.keys.admin}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url: `http://127.0.0.1:9/w${writerIndex}-${n}`, events: ['*'] }),
          });
          if (response.status === 201)
            acknowledged.push(((await response.json()) as { data: { id: string } }).data.id);
          else refused++;
        } catch {
          refused++; // connection refused or reset once the server stops listening
          if (running.child.exitCode !== null) stopped = true;
          // Between its listener's close and its exit (the rest of the stop: jobs, listener, pool) each attempt
          // is refused at once: without a pause the eight writers spun on refusals, the test's CPU for nothing.
          else await sleep(REFUSED_PAUSE_MS);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    await eventually(() => expect(acknowledged.length).toBeGreaterThanOrEqual(40), {
      timeout: 30_000,
      what: 'the first 40 acknowledged writes',
    });
    const signalledAt = Date.now();
    process.kill(running.pid, 'SIGTERM');
    const code = await running.exited();
    const stopMs = Date.now() - signalledAt;
    stopped = true;
    await Promise.all(writers);

    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 2_000);
    const { rows } = await setup.pool.query<{ id: string }>('select id from webhooks where id = any($1)', [
      acknowledged,
    ]);
    expect(rows).toHaveLength(acknowledged.length);
    expect(refused).toBeGreaterThan(0); // the load really did run into the stop
  }, 120_000);
});
