/**
 * Fault suite (docs/reliability.md): a job-backed operation whose worker process is killed mid-job
 * resumes on another worker and finishes; one interrupted too often is marked Failed with a reason
 * (core/tracked-job.ts). Never `Running` forever.
 */
import pg from 'pg';
import { JobStatus } from '../../src/core/job-status.js';
import { TRACKED_JOB_MAX_RUNS } from '../../src/core/tracked-job.js';
import type { TenantSync } from '../../src/tenants/sync-run.entity.js';
import { createOrganizationWithKeys, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { ServerProcess } from '../helpers/server-process.js';
import { createTestDatabase } from '../helpers/test-database.js';

// The fixtures' server is built in the worker's realm (realm-suite.ts) on the file's database; the one killed
// mid-job is a process of its own. The fixtures' server is also the surviving worker of each test (its job runner
// started there, stopped at the test's end): a second and third app on the database were only a job runner each.
let databaseUrl: string;
let setup: RealmApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  // A dead worker's jobs are released after 1 s (the first test's survivor; the second test has no dead worker).
  setup = await realmApp({ databaseUrl, jobStaleAfterMs: 1_000 });
  org = await createOrganizationWithKeys(setup);
});
afterAll(() => setup.stop());

async function syncRow(id: string): Promise<TenantSync> {
  return (await onServer(setup, 'findEntity', 'TenantSync', { id })) as unknown as TenantSync;
}

async function startSync(app: { baseUrl: string }, tenantId: string): Promise<string> {
  const response = await fetch(`${app.baseUrl}/v1/tenants/${tenantId}/sync`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.keys.write}` },
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as Envelope<{ id: string }>).data.id;
}

describe('[fault] interrupted jobs', () => {
  it('a sync whose worker is killed mid-job resumes on another worker and completes', async () => {
    const tenant = await createTenant(setup, org.scope);
    // Hold the simulated cloud's table: the sync starts (Running) and then waits on its first read.
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table sim_cloud_objects in access exclusive mode');
    const doomed = await ServerProcess.start(databaseUrl, { RUN_WORKER: 'true' });
    let syncId: string;
    try {
      syncId = await startSync(doomed, tenant.id);
      await eventually(async () => expect((await syncRow(syncId)).status).toBe(JobStatus.RUNNING), {
        timeout: 30_000,
        what: 'the sync to be Running',
      });
      await doomed.kill(); // SIGKILL mid-job: its job stays locked, its row says Running
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    expect((await syncRow(syncId)).status).toBe(JobStatus.RUNNING);

    // A surviving worker releases the dead worker's job and the sync resumes there.
    await setup.runJobs(true);
    await eventually(async () => expect((await syncRow(syncId)).status).toBe(JobStatus.COMPLETED), {
      timeout: 60_000,
      maxInterval: 250, // an ORM read a probe, for the seconds the resumed sync takes: backing off from 20 ms
      what: 'the resumed sync to complete',
    });
    const done = await syncRow(syncId);
    expect(done).toMatchObject({ progress: 100, error: null, runAttempts: 2 });
    expect(done.summary).not.toBeNull();
    // Stopped here: a worker left running would take the next test's job before it is made to look interrupted
    // (a race a loaded machine loses).
    await setup.runJobs(false);
  }, 120_000);

  it('a sync interrupted on every run is marked Failed with a reason, not left Running', async () => {
    const tenant = await createTenant(setup, org.scope);
    const syncId = await startSync(setup, tenant.id); // no worker in `setup`: it stays queued
    // As the row looks after TRACKED_JOB_MAX_RUNS runs that each died mid-job.
    await onServer(
      setup,
      'updateEntities',
      'TenantSync',
      { id: syncId },
      { status: JobStatus.RUNNING, runAttempts: TRACKED_JOB_MAX_RUNS },
    );
    await setup.runJobs(true);
    await eventually(async () => expect((await syncRow(syncId)).status).toBe(JobStatus.FAILED), {
      timeout: 30_000,
      maxInterval: 250,
      what: 'the sync to be marked Failed',
    });
    expect((await syncRow(syncId)).error).toMatch(/worker running it died/);
  }, 60_000);
});
