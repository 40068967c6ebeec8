import { createOrganizationWithKeys } from '../factories/shared.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { ServerProcess } from '../helpers/server-process.js';
import {
  backupTenant,
  getRestore,
  latestSnapshot,
  simulatedCloud,
  startRestore,
  untilFinished,
} from './backup-kit.js';
import { eventually } from '../helpers/eventually.js';

/**
 * A real crash: the server running the restore is killed with SIGKILL mid-run, a second one takes over the
 * job (released by the job workers' liveness check) and finishes it. No item may be restored twice.
 */
// The fixtures' server, without a job runner: a server of the file's own built in the worker's realm, on a fresh
// database, which the server processes share.
let setup: RealmApp;
let servers: ServerProcess[] = [];
// The killed server's locked job comes back after JOB_STALE_AFTER_MS: the shortest allowed (four 500 ms
// heartbeats), not the default 20 s, which the test only sat out (as test/webhooks/restart.test.ts does).
const SERVER_ENV = { RUN_WORKER: 'true', WORKER_CONCURRENCY: '2', JOB_STALE_AFTER_MS: '2000' };

beforeAll(async () => {
  setup = await realmApp();
});
afterAll(async () => {
  for (const server of servers) await server.kill();
  await setup.stop();
});

it('resumes a restore interrupted by a crash without restoring any item twice', async () => {
  const org = await createOrganizationWithKeys(setup);
  const { tenant, users } = await backupTenant(setup, org);
  const snapshot = await latestSnapshot(setup, org.keys.read, tenant.id, 'Personal file storage');
  // A slow backup service: each batch of 20 takes 400 ms, so the kill finds the restore mid-way.
  await simulatedCloud(setup).backup.injectFault(tenant.externalId, { delayMs: 400 });
  const res = await startRestore(setup, org.keys.write, tenant.id, {
    workload: 'Personal file storage',
    restoreType: 'Point-in-time',
    snapshotId: snapshot.id,
    target: { type: 'Different location', location: `${users[0].userPrincipalName}/After crash` },
  });
  expect(res.status).toBe(202);
  const jobId = res.body.data.id;
  const total = res.body.data.itemCount;
  expect(total).toBeGreaterThan(20);

  const first = await ServerProcess.start(setup.databaseUrl, SERVER_ENV);
  servers.push(first);
  await eventually(
    async () =>
      expect((await getRestore(setup, org.keys.read, tenant.id, jobId)).processedCount).toBeGreaterThan(0),
    { timeout: 30_000, what: 'the first server to restore its first batch' },
  );
  await first.kill();
  servers = [];
  const atKill = await getRestore(setup, org.keys.read, tenant.id, jobId);
  expect(atKill.status).toBe('Running');
  expect(atKill.processedCount).toBeGreaterThan(0);
  expect(atKill.processedCount).toBeLessThan(total);

  const second = await ServerProcess.start(setup.databaseUrl, SERVER_ENV);
  servers.push(second);
  const job = await untilFinished(setup, org.keys.read, tenant.id, jobId, undefined, 90_000);
  expect(job).toMatchObject({ status: 'Completed', processedCount: total, restoredCount: total });

  const records = await simulatedCloud(setup).backup.restoreRecords(tenant.externalId, jobId);
  expect(records.size).toBe(total);
  // Each item was put in place exactly once, whether or not its batch was sent again after the crash.
  expect([...records.values()].every((record) => record.applied === 1)).toBe(true);
  const { rows } = await setup.pool.query<{ n: number }>(
    `select count(*)::int as n from sim_cloud_objects where kind = 'backup_placed_item' and data->>'restoreKey' = $1`,
    [jobId],
  );
  expect(rows[0].n).toBe(total);
}, 150_000);
