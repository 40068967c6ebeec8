import type { User } from '@microsoft/microsoft-graph-types';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { retryNow } from '../helpers/job-queue.js';
import { userImportRow } from '../helpers/user-import-row.js';
import { onboardLive, sharedLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * A bulk user import whose `POST /users` gets no answer within the Graph deadline (the test settings' 5 s):
 * a timeout is not an answer — Graph may have created the user (here it does, late). The row is not failed;
 * the job is retried, finds the user by its address (`GET /users?$filter=userPrincipalName eq …`) instead of
 * creating it again, and records it. docs/reliability.md.
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  tenantId = onboarded.body.data!.onboardTenant.id;
});
afterAll(() => stopLiveWorld(world));

const UPNS = ['late.zero@fabrikam.com', 'late.one@fabrikam.com'];
const isUserPost = (request: { method: string; url: string }) =>
  request.method === 'POST' && request.url === '/v1.0/users';

it('a row whose POST /users times out is retried, not failed: found by its address, created once', async () => {
  const { fake } = world.scenario;
  fake.clearRequests();
  // Graph creates the first user, but answers after the 5 s deadline.
  fake.inject({ method: 'POST', url: /^\/v1\.0\/users$/, status: 200, delayMs: 5_500 });
  const csv = `UserPrincipalName,FirstName,LastName\n${UPNS.map((upn) => `${upn},Late,Answer`).join('\n')}\n`;
  const submitted = await world.app.request<Envelope<{ operation: { id: string } }>>(
    'POST',
    '/api/user-management-identity/users/bulk',
    { key: world.key, rawBody: csv, headers: { 'content-type': 'text/csv', 'X-Tenant-Id': tenantId } },
  );
  expect(submitted.status).toBe(202);
  const importId = submitted.body.data.operation.id;

  // Graph creates the first user after our deadline (what the queue's wait leaves it time for).
  await eventually(
    () =>
      expect(world.scenario.consented.users.map((record) => record.user.userPrincipalName)).toContain(
        UPNS[0],
      ),
    { timeout: 30_000, what: 'Graph to create the user late' },
  );
  // The attempt that timed out failed the job, not the row: the queue holds its retry for the 30 s the Graph
  // client asks after a Graph that did not answer (graph-errors.ts). The test does not sit that wait out.
  const retry = await retryNow(world.app.pool, `user-import:${importId}`);
  expect(retry.attempts).toBe(1);
  expect(retry.secondsAhead).toBeGreaterThan(15);
  expect((await userImportRow(world.app, importId)).status).toMatch(/^(Queued|Running)$/); // nothing failed

  await eventually(
    async () => expect((await userImportRow(world.app, importId)).status).not.toMatch(/^(Queued|Running)$/),
    { timeout: 90_000, maxInterval: 250, what: 'the import to end' }, // a query a probe: backing off from 20 ms
  );
  const { rows } = await world.app.pool.query<{ line: number; status: string; error: string | null }>(
    'select line, status, error from user_import_rows where import_id = $1 order by line',
    [importId],
  );
  expect(rows.map(({ status, error }) => ({ status, error }))).toEqual([
    { status: 'Created', error: null },
    { status: 'Created', error: null },
  ]);
  expect(await userImportRow(world.app, importId)).toMatchObject({
    status: 'Completed',
    processed_rows: 2,
    created_rows: 2,
  });
  // One POST per row: the timed-out one was not sent again; its user was looked up by address instead.
  const posts = fake.requests.filter(isUserPost).map((request) => (request.body as User).userPrincipalName);
  expect(posts.sort()).toEqual([...UPNS].sort());
  const calls = fake.graphCalls();
  const lookups = calls.filter((call) =>
    call.startsWith(`GET /v1.0/users?$filter=userPrincipalName eq '${UPNS[0]}'`),
  );
  expect(lookups.length).toBeGreaterThanOrEqual(2); // before the first POST, and again on the retry
  expect(calls.lastIndexOf(lookups[lookups.length - 1])).toBeGreaterThan(
    calls.findIndex((call) => call === 'POST /v1.0/users'),
  );
  const upstream = world.scenario.consented.users.filter((record) =>
    UPNS.includes(record.user.userPrincipalName ?? ''),
  );
  expect(upstream).toHaveLength(2);
  const { rows: saved } = await world.app.pool.query<{ user_principal_name: string; external_id: string }>(
    'select user_principal_name, external_id from users where tenant_id = $1 and user_principal_name = any($2)',
    [tenantId, UPNS],
  );
  expect(new Map(saved.map((row) => [row.user_principal_name, row.external_id]))).toEqual(
    new Map(upstream.map((record) => [record.user.userPrincipalName!, record.user.id!])),
  );
}, 150_000);
