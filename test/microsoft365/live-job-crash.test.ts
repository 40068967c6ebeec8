import type { User } from '@microsoft/microsoft-graph-types';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { userImportRow } from '../helpers/user-import-row.js';
import { FaultServer } from '../faults/fault-server.js';
import { onboardLive, realmLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * [fault] A job of the live provider killed with -9 mid-job (issue #29, docs/reliability.md): a bulk user
 * import on the Graph fake whose worker dies while its first `POST /users` is inside Graph. Graph creates
 * the user; the process never learns it. Another worker takes the job over and completes it: the user is
 * found by its UPN (a keyed create looks up first) and recorded, every other row is created once, and no
 * Graph write is repeated.
 */
let databaseUrl: string;
let world: LiveWorld<RealmApp>;
let tenantId: string;
let server: FaultServer | undefined;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  // A server of the file's own in the worker's realm (realm-suite.ts), on the database the killed process uses:
  // fixtures and checks, and later the worker that takes the killed one's job over (its job runner started then).
  world = await realmLiveWorld({
    databaseUrl,
    jobStaleAfterMs: 1_000,
    // A row whose Graph call fails is failed, not retried: no 5 s deadline on a loaded machine.
    microsoft365: { requestTimeoutMs: 30_000 },
  });
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  tenantId = onboarded.body.data!.onboardTenant.id;
});
afterAll(async () => {
  server?.reap();
  await stopLiveWorld(world);
});

const UPNS = ['crash.zero@fabrikam.com', 'crash.one@fabrikam.com', 'crash.two@fabrikam.com'];
const isUserPost = (request: { method: string; url: string }) =>
  request.method === 'POST' && request.url === '/v1.0/users';

describe('[fault] a live job killed -9', () => {
  it('a live user import killed -9 during a Graph write resumes on another worker: done once, nothing repeated', async () => {
    const { fake } = world.scenario;
    // The first POST /users answers late (for real): the worker is killed while Graph is creating the user.
    fake.inject({ method: 'POST', url: /^\/v1\.0\/users$/, status: 200, delayMs: 3_000 });
    server = await FaultServer.start({
      DATABASE_URL: databaseUrl,
      RUN_WORKER: 'true',
      MICROSOFT_LOGIN_URL: fake.loginUrl,
      MICROSOFT_GRAPH_URL: fake.graphUrl,
    });
    const csv = `UserPrincipalName,FirstName,LastName\n${UPNS.map((upn) => `${upn},Crash,Test`).join('\n')}\n`;
    const submitted = await fetch(`${server.baseUrl}/api/user-management-identity/users/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.key}`, 'content-type': 'text/csv', 'X-Tenant-Id': tenantId },
      body: csv,
    });
    expect(submitted.status).toBe(202);
    const importId = ((await submitted.json()) as Envelope<{ operation: { id: string } }>).data.operation.id;

    const inFlight = await eventually(
      async () => {
        const found = fake.requests.find((request) => isUserPost(request) && request.status === 0);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 60_000, what: 'the first POST /users to be inside Graph' },
    );
    await server.killGroup();
    // Graph finishes the create on its own; the dead worker never saw the answer.
    await eventually(async () => expect(inFlight.status).toBe(201), {
      timeout: 10_000,
      what: 'Graph to answer',
    });
    const landed = (inFlight.body as User).userPrincipalName;
    expect(landed).toBe(UPNS[0]);
    expect(await userImportRow(world.app, importId)).toMatchObject({ status: 'Running', created_rows: 0 });

    // Another worker (not the killed process) takes the job over once it is released (after 1 s here).
    await world.app.runJobs(true);
    await eventually(
      async () => expect((await userImportRow(world.app, importId)).status).not.toBe('Running'),
      // A query a probe, for the seconds the resumer takes (the job's release included): backing off from 20 ms.
      { timeout: 90_000, maxInterval: 250, what: 'the resumed import to end' },
    );
    const { rows: failures } = await world.app.pool.query<{ line: number; error: string }>(
      "select line, error from user_import_rows where import_id = $1 and status <> 'Created' order by line",
      [importId],
    );
    expect(failures).toEqual([]);
    expect(await userImportRow(world.app, importId)).toMatchObject({
      status: 'Completed',
      processed_rows: 3,
      created_rows: 3,
    });

    // One POST /users per row, the interrupted one included: none repeated.
    const posts = fake.requests.filter(isUserPost).map((request) => (request.body as User).userPrincipalName);
    expect(posts.sort()).toEqual([...UPNS].sort());
    // The resumed run looked the interrupted row's user up by UPN instead of creating it again.
    expect(
      fake
        .graphCalls()
        .some((call) => call.startsWith(`GET /v1.0/users?$filter=userPrincipalName eq '${landed}'`)),
    ).toBe(true);
    const upstream = world.scenario.consented.users.filter((record) =>
      UPNS.includes(record.user.userPrincipalName ?? ''),
    );
    expect(upstream).toHaveLength(3);
    const { rows } = await world.app.pool.query<{ user_principal_name: string; external_id: string }>(
      'select user_principal_name, external_id from users where tenant_id = $1 and user_principal_name = any($2)',
      [tenantId, UPNS],
    );
    expect(new Map(rows.map((row) => [row.user_principal_name, row.external_id]))).toEqual(
      new Map(upstream.map((record) => [record.user.userPrincipalName!, record.user.id!])),
    );
  }, 240_000);
});
