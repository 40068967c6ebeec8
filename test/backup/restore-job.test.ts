import type { OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  backupCall,
  backupTenant,
  getRestore,
  latestSnapshot,
  type RestoreJobBody,
  simulatedCloud,
  startRestore,
} from './backup-kit.js';
import { eventually } from '../helpers/eventually.js';

/** No worker here: each test runs the restore job by hand, as graphile-worker would. */
let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

const FIRST_ATTEMPT = { attempts: 1, max_attempts: 5 };
const LAST_ATTEMPT = { attempts: 5, max_attempts: 5 };

/** The restore job's run for `jobId` (its queue attempt `job`), by the server as its worker would. */
function runner(jobId: string): { run: (job: typeof FIRST_ATTEMPT) => Promise<void> } {
  return { run: (job) => onServer(app, 'runRestore', org.scope, jobId, job) };
}

async function queuedRestore(): Promise<{ tenantId: string; tenantExternalId: string; job: RestoreJobBody }> {
  const { tenant, users } = await backupTenant(app, org);
  const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
  const res = await startRestore(app, org.keys.write, tenant.id, {
    workload: 'Mailbox',
    restoreType: 'Point-in-time',
    snapshotId: snapshot.id,
    target: { type: 'Different location', location: `${users[0].userPrincipalName}/Restored` },
  });
  expect(res.status).toBe(202);
  return { tenantId: tenant.id, tenantExternalId: tenant.externalId, job: res.body.data };
}

function cancel(tenantId: string, jobId: string) {
  return backupCall<RestoreJobBody>(app, 'POST', `/restore/${jobId}/cancel`, {
    key: org.keys.write,
    tenantId,
  });
}

it('cancels a Queued restore: every item Cancelled, and a worker picking it up later does nothing', async () => {
  const { tenantId, job } = await queuedRestore();
  const res = await cancel(tenantId, job.id);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ status: 'Cancelled', processedCount: 0 });
  await runner(job.id).run(FIRST_ATTEMPT);
  const after = await getRestore(app, org.keys.read, tenantId, job.id, '?limit=100');
  expect(after).toMatchObject({ status: 'Cancelled', restoredCount: 0 });
  expect(after.items?.items.every((item) => item.status === 'Cancelled')).toBe(true);
  const again = await cancel(tenantId, job.id);
  expect(again.status).toBe(409);
  expect(again.body.error?.details).toEqual({ from: 'Cancelled', to: 'Cancelled', allowed: [] });
});

it('cancels a Running restore: the batch at the cloud keeps its real results, the rest is Cancelled', async () => {
  const { tenantId, tenantExternalId, job } = await queuedRestore();
  // A slow backup service, so the cancel lands while the first batch is at the cloud.
  await simulatedCloud(app).backup.injectFault(tenantExternalId, { delayMs: 300 });
  const running = runner(job.id).run(FIRST_ATTEMPT);
  await eventually(
    async () => expect((await getRestore(app, org.keys.read, tenantId, job.id)).status).toBe('Running'),
    { interval: 10, what: 'the restore to be Running' },
  );
  expect((await cancel(tenantId, job.id)).status).toBe(200);
  await running;
  const after = await getRestore(app, org.keys.read, tenantId, job.id, '?limit=100');
  expect(after.status).toBe('Cancelled');
  const statuses = after.items!.items.map((item) => item.status);
  expect(statuses.filter((status) => status === 'Restored')).toHaveLength(after.restoredCount);
  expect(after.restoredCount).toBeGreaterThan(0);
  expect(after.restoredCount).toBeLessThan(after.itemCount);
  expect(statuses.filter((status) => status === 'Cancelled')).toHaveLength(
    after.itemCount - after.processedCount,
  );
  const completed = await cancel(tenantId, job.id);
  expect(completed.status).toBe(409);
});

it('an unavailable backup service: retried (the job stays Running), then Failed with the reason on the last attempt', async () => {
  const { tenantId, tenantExternalId, job } = await queuedRestore();
  await simulatedCloud(app).backup.injectFault(tenantExternalId, {
    unavailable: 'Backup service throttled (503)',
  });
  await expect(runner(job.id).run(FIRST_ATTEMPT)).rejects.toThrow('throttled');
  expect((await getRestore(app, org.keys.read, tenantId, job.id)).status).toBe('Running');
  await runner(job.id).run(LAST_ATTEMPT);
  const failed = await getRestore(app, org.keys.read, tenantId, job.id, '?limit=1');
  expect(failed).toMatchObject({ status: 'Failed', restoredCount: 0 });
  expect(failed.failureReason).toContain('throttled');
  expect(failed.items?.items[0]).toMatchObject({
    status: 'Cancelled',
    detail: expect.stringContaining('failed'),
  });
});

it('Failed when every item fails', async () => {
  const { tenantId, tenantExternalId } = await queuedRestore();
  const snapshot = await latestSnapshot(app, org.keys.read, tenantId, 'Mailbox');
  await simulatedCloud(app).backup.injectFault(tenantExternalId, { failItemIds: ['inbox/1', 'inbox/2'] });
  const res = await startRestore(app, org.keys.write, tenantId, {
    workload: 'Mailbox',
    restoreType: 'Granular item',
    snapshotId: snapshot.id,
    itemIds: ['inbox/1', 'inbox/2'],
    target: { type: 'Original location' },
  });
  await runner(res.body.data.id).run(FIRST_ATTEMPT);
  const job = await getRestore(app, org.keys.read, tenantId, res.body.data.id);
  expect(job).toMatchObject({
    status: 'Failed',
    failedCount: 2,
    failureReason: expect.stringContaining('Every item'),
  });
});
