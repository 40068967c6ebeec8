/**
 * Fault suite (docs/reliability.md; issue #34 items 1 and 7): a worker killed with kill -9 between a cloud
 * write and the save of its result. A table lock held by the test stops the import's save of one row right
 * after that row's user was created in the cloud; the server's process group is then killed. The run that
 * resumes the import asks the cloud under the row's request key, records the user the first call created,
 * and creates nobody twice; the tenant's next sync completes with no duplicate upstream. (The old import sent
 * the row again: two cloud users for one UPN, and every later sync failed on users_active_upn_unique.)
 */
import { createTenant } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { faultSuite, submitUserImport, userImportRow, whileLocked } from './fault-kit.js';

const ROWS = 40;
const suite = faultSuite();

describe('[fault] kill -9 between a cloud write and its save', () => {
  it('a resumed user import records the cloud user of the killed run; the next sync completes', async () => {
    const { setup, org } = suite;
    const tenant = await createTenant(setup, org.scope, { domain: 'crash-save.example' });
    const importId = await submitUserImport(setup, org, tenant, ROWS);
    const importRow = () => userImportRow(setup, importId);

    const server = await suite.startServer();
    await eventually(async () => expect((await importRow()).created_rows).toBeGreaterThanOrEqual(2), {
      timeout: 60_000,
      what: 'the import to be under way',
    });
    // From now on no user row can be saved: the next row's cloud create happens, its save waits.
    await whileLocked(
      setup.databaseUrl,
      { sql: 'lock table users in share row exclusive mode', relation: true },
      async (waitedOn) => {
        await waitedOn("a row's save to wait after its cloud create", 30_000);
        await server.killGroup();
      },
    );
    const killedAt = await importRow();
    expect(killedAt.status).toBe('Running');
    const activeUpstream = async () =>
      (await simulatedCloud(setup).listUsers(tenant.externalId)).filter((user) => user.deletedAt === null);
    // The killed row's user exists upstream, not here.
    expect((await activeUpstream()).length).toBe(killedAt.created_rows + 1);

    // Another process takes the job over (the dead worker's jobs are released after 1 s here) and finishes it.
    const resumer = await suite.startResumer();
    await eventually(async () => expect((await importRow()).status).toBe('Completed'), {
      timeout: 60_000,
      maxInterval: 250, // a query a probe, for the seconds the resumer takes: backing off from 20 ms
      what: 'the resumed import to complete',
    });
    expect(await importRow()).toMatchObject({ processed_rows: ROWS, created_rows: ROWS });
    const upstream = await activeUpstream();
    expect(upstream).toHaveLength(ROWS);
    expect(new Set(upstream.map((user) => user.userPrincipalName.toLowerCase())).size).toBe(ROWS);

    const sync = await syncAndWait(resumer, org, tenant.id);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary?.usersSkipped).toBeUndefined();
  }, 180_000);
});
