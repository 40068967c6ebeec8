import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp } from '../helpers/realm-suite.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { countUsers } from '../users/user-test-kit.js';
import { um } from './um-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

// The worker's shared server: what the file reads in SQL is its own tenants' and imports' (the job queue's by
// the import's key). Its job runner is off: the tests run the imports by hand (onServer), except the last one,
// whose worker is a second server on the same database.
beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

type ImportBody = DataOf<'getUserImport'>;
type SubmissionBody = DataOf<'importUsers'>;

const HEADER = 'UserPrincipalName,FirstName,LastName,DisplayName,Password,Department,UsageLocation';

async function tenantWithDomain(): Promise<Tenant> {
  return createTenant(app, org.scope, { domain: `import-${Math.random().toString(36).slice(2, 8)}.example` });
}

function submit(t: Tenant, csv: string, key = org.keys.write) {
  return um<SubmissionBody>(app, 'POST', '/bulk', { key, tenantId: t.id, csv });
}

/** Runs the queued import the way the user-import job does (the job runner is not started here). */
async function runJob(t: Tenant, importId: string): Promise<ImportBody> {
  await onServer(app, 'runUserImport', org.scope, importId);
  const res = await um<ImportBody>(app, 'GET', `/bulk/${importId}?limit=100`, {
    key: org.keys.read,
    tenantId: t.id,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function queuedJobs(importId: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(
    `select count(*) as n from graphile_worker.jobs where task_identifier = 'user-import' and key = $1`,
    [`user-import:${importId}`],
  );
  return Number(rows[0].n);
}

describe('POST /api/user-management-identity/users/bulk', () => {
  it('queues a good file (202), generates missing passwords once, and the job creates every user', async () => {
    const t = await tenantWithDomain();
    const csv =
      `\uFEFF${HEADER}\r\n` +
      `ann@${t.domain},Ann,Lee,,,Finance,US\r\n` +
      `"ben@${t.domain}",Ben,"O'Neil","O'Neil, Ben",Str0ng-Passw0rd!,,\r\n` +
      `\r\n` +
      `cy@${t.domain},Cy,Twombly,,,Sales,DE\r\n`;
    const res = await submit(t, csv);
    expect(res.status).toBe(202);
    expect(res.body.data.operation).toMatchObject({ status: 'Queued', totalRows: 3, processedRows: 0 });
    expect(res.body.data.generatedPasswords.map((p) => [p.line, p.userPrincipalName])).toEqual([
      [2, `ann@${t.domain}`],
      [5, `cy@${t.domain}`],
    ]);
    expect(JSON.stringify(res.body)).not.toContain('Str0ng-Passw0rd!');
    expect(await queuedJobs(res.body.data.operation.id)).toBe(1);
    expect(await countUsers(app, t.id)).toBe(0); // nothing before the job runs
    // Issue #32 item 7: pending passwords are sealed at rest, never in clear.
    const pending = await app.pool.query<{ password: string }>(
      'select password from user_import_rows where import_id = $1',
      [res.body.data.operation.id],
    );
    expect(pending.rows).toHaveLength(3);
    for (const row of pending.rows) expect(row.password).toMatch(/^enc:v1:/);
    expect(JSON.stringify(pending.rows)).not.toContain('Str0ng-Passw0rd!');

    const done = await runJob(t, res.body.data.operation.id);
    expect(done).toMatchObject({ status: 'Completed', processedRows: 3, createdRows: 3, failedRows: 0 });
    expect(done.rows?.items.map((r) => [r.line, r.status])).toEqual([
      [2, 'Created'],
      [3, 'Created'],
      [5, 'Created'],
    ]);
    const { rows } = await app.pool.query('select password from user_import_rows where import_id = $1', [
      done.id,
    ]);
    expect(rows.every((row: { password: string | null }) => row.password === null)).toBe(true);
    const ben = await um<{ displayName: string }>(app, 'GET', `/${done.rows!.items[1].userId}`, {
      key: org.keys.read,
      tenantId: t.id,
    });
    expect(ben.body.data.displayName).toBe("O'Neil, Ben");
  });

  it('refuses formula-like cells (=, +, -, @, tab, CR) with line and column, not in Password (issue #9)', async () => {
    const t = await tenantWithDomain();
    const csv =
      `${HEADER}\n` +
      `ok@${t.domain},Ok,Row,,-Str0ng-Passw0rd!,,\n` +
      `eq@${t.domain},"=HYPERLINK(""x"")",Row,,,,\n` +
      `at@${t.domain},At,Row,,,@SUM(A1),\n` +
      `sp@${t.domain},Sp,Row," +cmd|calc",,,\n`;
    const before = await countUsers(app, t.id);
    const res = await submit(t, csv);
    expect(res.status).toBe(400);
    const fields = res.body.error?.details.fields as Array<{ line: number; field: string; problem: string }>;
    const formula = fields.filter((f) => f.problem.includes('formula'));
    expect(formula.map((f) => [f.line, f.field])).toEqual([
      [3, 'FirstName'],
      [4, 'Department'],
      [5, 'DisplayName'],
    ]);
    expect(await countUsers(app, t.id)).toBe(before);
  });

  it('bad rows: 400 listing line, column and problem (duplicate in the file, taken UPN, foreign domain, blank name, weak password); nothing written', async () => {
    const t = await tenantWithDomain();
    const first = await submit(t, `${HEADER}\ntaken@${t.domain},Tak,En,,,,\n`);
    await runJob(t, first.body.data.operation.id);
    const csv =
      `${HEADER}\n` +
      `ok@${t.domain},Ok,Row,,,,\n` +
      `dup@${t.domain},Dup,One,,,,\n` +
      `DUP@${t.domain},Dup,Two,,,,\n` +
      `taken@${t.domain},Tak,Again,,,,\n` +
      `x@elsewhere.example,X,Y,,,,\n` +
      `blank@${t.domain}, ,Name,,,,\n` +
      `weak@${t.domain},We,Ak,,abc,,\n` +
      `loc@${t.domain},Lo,Cation,,,,Narnia\n`;
    const before = await countUsers(app, t.id);
    const res = await submit(t, csv);
    expect(res.status).toBe(400);
    const fields = res.body.error?.details.fields as Array<{ line: number; field: string; problem: string }>;
    expect(fields.map((f) => [f.line, f.field])).toEqual(
      expect.arrayContaining([
        [4, 'UserPrincipalName'],
        [5, 'UserPrincipalName'],
        [6, 'UserPrincipalName'],
        [7, 'FirstName'],
        [8, 'Password'],
        [9, 'UsageLocation'],
      ]),
    );
    expect(fields.find((f) => f.line === 4)?.problem).toBe('repeats the UPN of line 3');
    expect(fields.some((f) => f.line === 2)).toBe(false);
    expect(await countUsers(app, t.id)).toBe(before);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from user_imports where tenant_id = $1',
      [t.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('refuses a user that an import still queued is to create (issue #33 item 10), and accepts it once that import ran', async () => {
    const t = await tenantWithDomain();
    const first = await submit(t, `${HEADER}\nsame@${t.domain},Sa,Me,,,,\n`);
    expect(first.status).toBe(202);
    const firstId = first.body.data.operation.id;
    const second = await submit(t, `${HEADER}\nother@${t.domain},Ot,Her,,,,\nSAME@${t.domain},Sa,Me,,,,\n`);
    expect(second.status).toBe(400);
    expect(second.body.error?.details.fields).toEqual([
      {
        line: 3,
        field: 'UserPrincipalName',
        problem: `is already queued to be created by import ${firstId}`,
      },
    ]);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from user_imports where tenant_id = $1',
      [t.id],
    );
    expect(rows[0].n).toBe(1);
    // Once it ran, the user exists: the usual "already taken".
    await runJob(t, firstId);
    const third = await submit(t, `${HEADER}\nsame@${t.domain},Sa,Me,,,,\n`);
    expect(third.status).toBe(400);
    expect(third.body.error?.details.fields).toEqual([
      expect.objectContaining({ line: 2, problem: 'is already taken by another user' }),
    ]);
  });

  it('a wrong header is 400 naming the columns', async () => {
    const t = await tenantWithDomain();
    const res = await submit(t, `Email,FirstName,Surname\na@${t.domain},A,B\n`);
    expect(res.status).toBe(400);
    expect((res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toEqual(
      expect.arrayContaining(['Email', 'Surname', 'UserPrincipalName', 'LastName']),
    );
  });

  it('a UPN taken while the job waits fails that row only: CompletedWithErrors', async () => {
    const t = await tenantWithDomain();
    const res = await submit(t, `${HEADER}\none@${t.domain},One,A,,,,\ntwo@${t.domain},Two,B,,,,\n`);
    const meanwhile = await um(app, 'POST', '', {
      key: org.keys.write,
      tenantId: t.id,
      body: { firstName: 'Early', lastName: 'Bird', userPrincipalName: `two@${t.domain}` },
    });
    expect(meanwhile.status).toBe(201);
    const done = await runJob(t, res.body.data.operation.id);
    expect(done).toMatchObject({ status: 'CompletedWithErrors', createdRows: 1, failedRows: 1 });
    expect(done.rows?.items[1]).toMatchObject({
      status: 'Failed',
      error: expect.stringMatching(/already taken/),
    });
  });

  it('every row failing is Failed, never success', async () => {
    const t = await tenantWithDomain();
    const res = await submit(t, `${HEADER}\nsolo@${t.domain},So,Lo,,,,\n`);
    await um(app, 'POST', '', {
      key: org.keys.write,
      tenantId: t.id,
      body: { firstName: 'So', lastName: 'Lo', userPrincipalName: `solo@${t.domain}` },
    });
    const done = await runJob(t, res.body.data.operation.id);
    expect(done).toMatchObject({ status: 'Failed', createdRows: 0, failedRows: 1 });
    expect(done.failureReason).toMatch(/No row/);
  });

  it('a retried job resumes: a row whose user landed before the crash is Created, not created twice', async () => {
    const t = await tenantWithDomain();
    const res = await submit(t, `${HEADER}\nr1@${t.domain},R,One,,,,\nr2@${t.domain},R,Two,,,,\n`);
    const id = res.body.data.operation.id;
    // The crashed attempt had marked row 1 Creating and its user was created; then the process died.
    await app.pool.query(
      `update user_import_rows set status = 'Creating' where import_id = $1 and line = 2`,
      [id],
    );
    await um(app, 'POST', '', {
      key: org.keys.write,
      tenantId: t.id,
      body: { firstName: 'R', lastName: 'One', userPrincipalName: `r1@${t.domain}` },
    });
    const done = await runJob(t, id);
    expect(done).toMatchObject({ status: 'Completed', createdRows: 2, failedRows: 0 });
    expect(await countUsers(app, t.id)).toBe(2);
  });

  it('accepts a 10 MiB file and refuses 11 MiB; JSON {csv} works too', async () => {
    const t = await tenantWithDomain();
    const body = `${HEADER}\nbig@${t.domain},Big,File,,,,\n`;
    const tenMiB = body + '\n'.repeat(10 * 1024 * 1024 - Buffer.byteLength(body));
    expect(Buffer.byteLength(tenMiB)).toBe(10 * 1024 * 1024);
    const ok = await submit(t, tenMiB);
    expect(ok.status).toBe(202);
    expect(ok.body.data.operation.totalRows).toBe(1);
    const tooBig = await submit(t, body + '\n'.repeat(11 * 1024 * 1024));
    expect([400, 413]).toContain(tooBig.status);
    expect(tooBig.body.error?.code).toBe('INVALID_REQUEST');
    const json = await um<SubmissionBody>(app, 'POST', '/bulk', {
      key: org.keys.write,
      tenantId: t.id,
      body: { csv: `${HEADER}\njson@${t.domain},Js,On,,,,\n` },
    });
    expect(json.status).toBe(202);
  });

  it('GraphQL importUsers and userImport; 403 for Read; 404 across organizations; X-Tenant-Id required', async () => {
    const t = await tenantWithDomain();
    const gql = await app.graphql<{
      importUsers: { operation: { id: string; status: string }; generatedPasswords: Array<{ line: number }> };
    }>(
      org.keys.write,
      `mutation($t: UUID!, $csv: String!) { importUsers(tenantId: $t, csv: $csv) {
        operation { id status } generatedPasswords { line } } }`,
      { t: t.id, csv: `${HEADER}\ng@${t.domain},G,Q,,,,\n` },
    );
    const id = gql.body.data!.importUsers.operation.id;
    expect(gql.body.data!.importUsers.operation.status).toBe('QUEUED');
    await onServer(app, 'runUserImport', org.scope, id);
    const read = await app.graphql<{
      userImport: { status: string; rows: { items: Array<{ status: string }> } };
    }>(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { userImport(tenantId: $t, id: $id) { status rows { items { status } } } }`,
      { t: t.id, id },
    );
    expect(read.body.data?.userImport).toEqual({
      status: 'COMPLETED',
      rows: { items: [{ status: 'CREATED' }] },
    });
    expect((await submit(t, `${HEADER}\nr@${t.domain},R,O,,,,\n`, org.keys.read)).status).toBe(403);
    expect((await submit(t, `${HEADER}\nr@${t.domain},R,O,,,,\n`, other.keys.admin)).status).toBe(404);
    const foreignRead = await um(app, 'GET', `/bulk/${id}`, { key: other.keys.admin, tenantId: t.id });
    expect(foreignRead.status).toBe(404);
    const noTenant = await um(app, 'POST', '/bulk', { key: org.keys.write, csv: `${HEADER}\n` });
    expect(noTenant.status).toBe(400);
  });
});

describe('the user-import job on the worker', () => {
  it('runs a queued import to Completed through graphile-worker', async () => {
    const worker = await realmApp({ jobs: true, databaseUrl: app.databaseUrl });
    try {
      const t = await tenantWithDomain();
      const res = await submit(t, `${HEADER}\nw1@${t.domain},W,One,,,,\nw2@${t.domain},W,Two,,,,\n`);
      const id = res.body.data.operation.id;
      const status = await eventually(
        async () => {
          const { body } = await um<ImportBody>(app, 'GET', `/bulk/${id}`, {
            key: org.keys.read,
            tenantId: t.id,
          });
          expect(['Completed', 'CompletedWithErrors', 'Failed']).toContain(body.data.status);
          return body.data.status;
        },
        { what: 'the import to end' },
      );
      expect(status).toBe('Completed');
      expect(await countUsers(app, t.id)).toBe(2);
    } finally {
      await worker.stop();
    }
  }, 30_000);
});
