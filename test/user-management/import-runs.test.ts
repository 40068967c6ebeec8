/**
 * Runs of a user import that overlap, die or stop (issue #34 items 2 and 3), driven in-process: the cloud
 * call of a chosen row is held by a gate, so a run "dies" (never let go) or "freezes" (let go after another
 * run took the import over) exactly there.
 * - a stale run's writes change nothing, and it stops (fencing token);
 * - runs killed after making progress are not counted as a crash loop;
 * - a worker told to stop ends between two rows, uncounted, and the next run goes on;
 * - a Failed import is retried, REST and GraphQL, for its remaining rows only.
 */
import type { CloudProviders } from '../../src/cloud/cloud-provider.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createOrganizationWithKeys, createTenant } from '../factories/shared.js';
import type { DataOf } from '../helpers/api-types.js';
import { gate, gatedProvider } from '../helpers/cloud-gate.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { um } from './um-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

/**
 * A server of the file's own in the worker's realm (realm-suite.ts): the housekeeping test's run erases every
 * organization's expired passwords. The runs are the server's (onServer `runUserImport`) on the file's gated copy
 * of its cloud; their errors are the server's classes, told apart by name (LostRunError, RunStopped).
 */
let app: RealmApp;
let org: OrganizationWithKeys;
beforeAll(async () => ({ app, org } = await realmSuite()));
afterAll(() => app.stop());

/** One run of the import job on the server (on `clouds` when given, told to stop by `abortSignal`). */
const runUserImport = (
  importId: string,
  options: { clouds?: CloudProviders; abortSignal?: AbortSignal } = {},
): Promise<void> => onServer(app, 'runUserImport', org.scope, importId, options);

type ImportBody = DataOf<'getUserImport'>;
type SubmissionBody = DataOf<'importUsers'>;
const HEADER = 'UserPrincipalName,FirstName,LastName';

async function importOf(rows: number): Promise<{ tenant: Tenant; importId: string }> {
  const tenant = await createTenant(app, org.scope, {
    domain: `runs-${Math.random().toString(36).slice(2, 8)}.example`,
  });
  const lines = Array.from({ length: rows }, (_, i) => `u${i + 1}@${tenant.domain},U,${i + 1}`);
  const res = await um<SubmissionBody>(app, 'POST', '/bulk', {
    key: org.keys.write,
    tenantId: tenant.id,
    csv: `${HEADER}\n${lines.join('\n')}\n`,
  });
  expect(res.status).toBe(202);
  return { tenant, importId: res.body.data.operation.id };
}

async function read(tenant: Tenant, importId: string): Promise<ImportBody> {
  const res = await um<ImportBody>(app, 'GET', `/bulk/${importId}?limit=100`, {
    key: org.keys.read,
    tenantId: tenant.id,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The server's cloud, its user creations waiting at `hold(n)` for the n-th creation (1-based) of this run. */
function holding(hold: (n: number) => Promise<void> | void): { clouds: CloudProviders } {
  let creations = 0;
  return {
    clouds: gatedProvider(app.deps.clouds, (path) =>
      path.endsWith('.createUser') ? hold(++creations) : undefined,
    ),
  };
}

const cloudUsers = async (tenant: Tenant) =>
  (await simulatedCloud(app).listUsers(tenant.externalId)).filter(
    (user) => user.deletedAt === null && user.userPrincipalName.endsWith(`@${tenant.domain}`),
  ).length;

describe('user import runs (issue #34 items 2 and 3)', () => {
  it('a frozen run that wakes after another took the import over writes nothing and stops', async () => {
    const { tenant, importId } = await importOf(6);
    const frozen = gate();
    const stale = runUserImport(
      importId,
      holding((n) => (n === 3 ? frozen.opened : undefined)),
    );
    // The stale run is at the cloud call of row 3 (rows 1 and 2 are Created).
    await eventually(async () => expect((await read(tenant, importId)).createdRows).toBe(2));
    // Its job was released (the worker looked dead): another run takes the import over and finishes it.
    await runUserImport(importId);
    expect(await read(tenant, importId)).toMatchObject({
      status: 'Completed',
      processedRows: 6,
      createdRows: 6,
    });

    frozen.open();
    await expect(stale).rejects.toHaveProperty('name', 'LostRunError');
    const after = await read(tenant, importId);
    // The old code counted the stale row again: processed 7 of 6, one Failed ("already exists").
    expect(after).toMatchObject({ status: 'Completed', processedRows: 6, createdRows: 6, failedRows: 0 });
    expect(after.rows.items.every((row) => row.status === 'Created')).toBe(true);
    expect(await cloudUsers(tenant)).toBe(6);
  });

  it('runs killed after making progress are not a crash loop: the fourth run finishes the import', async () => {
    const { tenant, importId } = await importOf(8);
    // Three runs each create two users and "die" at their third creation (held for good).
    for (let run = 1; run <= 3; run += 1) {
      void runUserImport(
        importId,
        holding((n) => (n === 3 ? new Promise(() => undefined) : undefined)),
      ).catch(() => undefined);
      await eventually(async () => expect((await read(tenant, importId)).createdRows).toBe(run * 2));
    }
    await runUserImport(importId);
    // The old code gave up here: "Stopped after 3 interrupted runs", 2 rows left Pending.
    expect(await read(tenant, importId)).toMatchObject({
      status: 'Completed',
      createdRows: 8,
      failedRows: 0,
    });
    expect(await cloudUsers(tenant)).toBe(8);
  });

  it('a worker told to stop ends between two rows, uncounted; the next run goes on', async () => {
    const { tenant, importId } = await importOf(5);
    const stop = new AbortController();
    const run = runUserImport(importId, {
      ...holding((n) => {
        if (n === 2) stop.abort(); // SIGTERM arrives while row 2 is at the cloud
      }),
      abortSignal: stop.signal,
    });
    await expect(run).rejects.toHaveProperty('name', 'RunStopped');
    const stopped = await read(tenant, importId);
    expect(stopped).toMatchObject({ status: 'Running', processedRows: 2, createdRows: 2 });
    const [{ run_attempts }] = (
      await app.pool.query<{ run_attempts: number }>('select run_attempts from user_imports where id = $1', [
        importId,
      ])
    ).rows;
    expect(run_attempts).toBe(0);
    await runUserImport(importId);
    expect(await read(tenant, importId)).toMatchObject({ status: 'Completed', createdRows: 5 });
  });

  it('retries a Failed import for its remaining rows only, over REST and GraphQL', async () => {
    for (const through of ['rest', 'graphql'] as const) {
      const { tenant, importId } = await importOf(4);
      // Two rows done, then the import gave up (as after runs that died without progress).
      void runUserImport(
        importId,
        holding((n) => (n === 3 ? new Promise(() => undefined) : undefined)),
      ).catch(() => undefined);
      await eventually(async () => expect((await read(tenant, importId)).createdRows).toBe(2));
      await app.pool.query(
        `update user_imports set status = 'Failed', failure_reason = 'Stopped after 3 interrupted runs',
                finished_at = now(), run_attempts = 3 where id = $1`,
        [importId],
      );

      if (through === 'rest') {
        const stranger = await createOrganizationWithKeys(app);
        const foreign = await um(app, 'POST', `/bulk/${importId}/retry`, {
          key: stranger.keys.write,
          tenantId: tenant.id,
        });
        expect(foreign.status).toBe(404);
        expect((await read(tenant, importId)).status).toBe('Failed');
        const res = await um<ImportBody>(app, 'POST', `/bulk/${importId}/retry`, {
          key: org.keys.write,
          tenantId: tenant.id,
        });
        expect(res.status).toBe(202);
        expect(res.body.data).toMatchObject({ status: 'Queued', failureReason: null, createdRows: 2 });
        const again = await um(app, 'POST', `/bulk/${importId}/retry`, {
          key: org.keys.write,
          tenantId: tenant.id,
        });
        expect(again.status).toBe(409);
        const reader = await um(app, 'POST', `/bulk/${importId}/retry`, {
          key: org.keys.read,
          tenantId: tenant.id,
        });
        expect(reader.status).toBe(403);
      } else {
        const res = await app.graphql<{ retryUserImport: { status: string } }>(
          org.keys.write,
          'mutation($t: UUID!, $id: UUID!) { retryUserImport(tenantId: $t, id: $id) { status } }',
          { t: tenant.id, id: importId },
        );
        expect(res.body.data?.retryUserImport.status).toBe('QUEUED');
      }
      const { rows } = await app.pool.query<{ n: string }>(
        `select count(*) as n from graphile_worker.jobs where task_identifier = 'user-import' and key = $1`,
        [`user-import:${importId}`],
      );
      expect(Number(rows[0].n)).toBe(1);
      await runUserImport(importId);
      const done = await read(tenant, importId);
      expect(done).toMatchObject({ status: 'Completed', processedRows: 4, createdRows: 4, failedRows: 0 });
      expect(await cloudUsers(tenant)).toBe(4);

      // Nothing remains: a second failure cannot be retried.
      await app.pool.query(`update user_imports set status = 'Failed' where id = $1`, [importId]);
      const nothing = await um(app, 'POST', `/bulk/${importId}/retry`, {
        key: org.keys.write,
        tenantId: tenant.id,
      });
      expect(nothing.status).toBe(409);
    }
  });

  it('erases a Failed import’s sealed passwords a week after the failure; its retry then answers 409 naming why', async () => {
    const { tenant, importId } = await importOf(3);
    const RETENTION = await onServer(app, 'housekeepingRetention');
    await app.pool.query(
      `update user_imports set status = 'Failed', failure_reason = 'Stopped after 3 interrupted runs',
              finished_at = $2, run_attempts = 3 where id = $1`,
      [importId, app.clock.now()],
    );
    const kept = async () =>
      (
        await app.pool.query<{ n: number }>(
          `select count(*)::int as n from user_import_rows where import_id = $1 and password is not null`,
          [importId],
        )
      ).rows[0].n;
    expect(await kept()).toBe(3);

    // Within the retention nothing is erased: the retry stays possible.
    app.clock.advance(RETENTION.failedImportPasswordsMs - 60_000);
    await onServer(app, 'runHousekeeping');
    expect(await kept()).toBe(3);
    expect((await read(tenant, importId)).passwordsPurgedAt).toBeNull();

    app.clock.advance(2 * 60_000);
    const result = await onServer(app, 'runHousekeeping');
    expect(result.failedImportPasswords).toBeGreaterThanOrEqual(3);
    expect(await kept()).toBe(0);
    const purged = await read(tenant, importId);
    expect(purged).toMatchObject({ status: 'Failed', passwordsPurgedAt: app.clock.now().toISOString() });

    const queued = async () =>
      (
        await app.pool.query<{ attempts: number; run_at: Date }>(
          `select attempts, run_at from graphile_worker.jobs where task_identifier = 'user-import' and key = $1`,
          [`user-import:${importId}`],
        )
      ).rows;
    const queuedBefore = await queued();
    const rest = await um<ImportBody>(app, 'POST', `/bulk/${importId}/retry`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(rest.status).toBe(409);
    expect(rest.body.error?.message).toMatch(/passwords of its 3 remaining row\(s\) were erased/);
    expect(rest.body.error?.details).toEqual({
      reason: 'PASSWORDS_PURGED',
      passwordsPurgedAt: app.clock.now().toISOString(),
      retentionDays: 7,
      remainingRows: 3,
    });
    const graphql = await app.graphql(
      org.keys.write,
      'mutation($t: UUID!, $id: UUID!) { retryUserImport(tenantId: $t, id: $id) { status } }',
      { t: tenant.id, id: importId },
    );
    expect(graphql.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'PASSWORDS_PURGED' },
    });
    // Refused with nothing written: still Failed, no job queued for it (the submission's own is never run here).
    expect((await read(tenant, importId)).status).toBe('Failed');
    expect(await queued()).toEqual(queuedBefore);
  });
});
