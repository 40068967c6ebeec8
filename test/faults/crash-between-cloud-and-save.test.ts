/**
 * Fault suite (docs/reliability.md; issue #34 items 1 and 7): a worker killed with kill -9 between a cloud
 * write and the save of its result. A table lock held by the test stops the import's save of one row right
 * after that row's user was created in the cloud; the server's process group is then killed. The run that
 * resumes the import asks the cloud under the row's request key, records the user the first call created,
 * and creates nobody twice; the tenant's next sync completes with no duplicate upstream. (The old import sent
 * the row again: two cloud users for one UPN, and every later sync failed on users_active_upn_unique.)
 */
import pg from 'pg';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { createTestDatabase, TestApp } from '../helpers/test-app.js';
import { FaultServer } from './fault-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

const ROWS = 40;
let setup: TestApp;
let resumer: TestApp | undefined;
let org: OrganizationWithKeys;
let server: FaultServer | undefined;

beforeAll(async () => {
  setup = await TestApp.start({ databaseUrl: await createTestDatabase() });
  org = await createOrganizationWithKeys(setup);
});
afterAll(async () => {
  server?.reap();
  await resumer?.stop();
  await setup.stop();
});

const importRow = async (id: string) =>
  (
    await setup.pool.query<{ status: string; processed_rows: number; created_rows: number }>(
      'select status, processed_rows, created_rows from user_imports where id = $1',
      [id],
    )
  ).rows[0];

describe('[fault] kill -9 between a cloud write and its save', () => {
  it('a resumed user import records the cloud user of the killed run; the next sync completes', async () => {
    const tenant = await createTenant(setup, org.scope, { domain: 'crash-save.example' });
    const csv = `UserPrincipalName,FirstName,LastName\n${Array.from(
      { length: ROWS },
      (_, i) => `user${i}@${tenant.domain},User,${i}`,
    ).join('\n')}\n`;
    const submitted = await setup.request<Envelope<{ operation: { id: string } }>>(
      'POST',
      '/api/user-management-identity/users/bulk',
      {
        key: org.keys.write,
        rawBody: csv,
        headers: { 'content-type': 'text/csv', 'X-Tenant-Id': tenant.id },
      },
    );
    expect(submitted.status).toBe(202);
    const importId = submitted.body.data.operation.id;

    const lock = new pg.Client({ connectionString: setup.databaseUrl });
    await lock.connect();
    try {
      server = await FaultServer.start({ DATABASE_URL: setup.databaseUrl, RUN_WORKER: 'true' });
      await eventually(
        async () => expect((await importRow(importId)).created_rows).toBeGreaterThanOrEqual(2),
        {
          timeout: 60_000,
          what: 'the import to be under way',
        },
      );
      // From now on no user row can be saved: the next row's cloud create happens, its save waits.
      await lock.query('begin');
      await lock.query('lock table users in share row exclusive mode');
      await eventually(
        async () => {
          const { rows } = await lock.query(
            `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
                and wait_event_type = 'Lock' and wait_event = 'relation'`,
          );
          expect(rows).toHaveLength(1);
        },
        { timeout: 30_000, what: "a row's save to wait after its cloud create" },
      );
      await server.killGroup();
    } finally {
      await lock.query('rollback').catch(() => undefined);
      await lock.end();
    }
    const killedAt = await importRow(importId);
    expect(killedAt.status).toBe('Running');
    const activeUpstream = async () =>
      (await simulatedCloud(setup).listUsers(tenant.externalId)).filter((user) => user.deletedAt === null);
    // The killed row's user exists upstream, not here.
    expect((await activeUpstream()).length).toBe(killedAt.created_rows + 1);

    // Another process takes the job over (the dead worker's jobs are released after 1 s here) and finishes it.
    resumer = await TestApp.start({ databaseUrl: setup.databaseUrl, jobs: true, jobStaleAfterMs: 1_000 });
    await eventually(async () => expect((await importRow(importId)).status).toBe('Completed'), {
      timeout: 60_000,
      what: 'the resumed import to complete',
    });
    expect(await importRow(importId)).toMatchObject({ processed_rows: ROWS, created_rows: ROWS });
    const upstream = await activeUpstream();
    expect(upstream).toHaveLength(ROWS);
    expect(new Set(upstream.map((user) => user.userPrincipalName.toLowerCase())).size).toBe(ROWS);

    const sync = await syncAndWait(resumer, org, tenant.id);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary?.usersSkipped).toBeUndefined();
  }, 180_000);
});
