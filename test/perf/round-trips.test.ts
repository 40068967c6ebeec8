import { randomUUID } from 'node:crypto';
import { getOperationAST, parse } from 'graphql';
import { PermissionLevel } from '../../src/core/permissions.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { LIST_USERS } from '../../src/users/user.rest.js';
import {
  createApiKey,
  createLicenseUser,
  createSku,
  giveLicense,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import { check, eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import {
  describe as describeStatements,
  roundTrips,
  sequentialRoundTrips,
  type RoundTripRecorder,
  type SentStatement,
} from '../helpers/round-trips.js';

/**
 * The PostgreSQL round trips of one users-list request (issue #31), counted at the `pg` client, whatever sends
 * them (ORM, rate limiter, authentication). docs/benchmarks.md "Round trips of one request" has the budget.
 *
 * The rate limiter's answers are held back 300 ms here: a statement the request sends meanwhile is plainly
 * running beside the count, not after it, on any machine.
 */
const COUNT_ANSWER_DELAY_MS = 300;
const RATE_LIMIT_SQL = /rate_limits/;

let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
/** The server's (realm-server.ts): its pg is the worker realm's, installed before its pools connected. */
let recorder: RoundTripRecorder;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({ tenant: true, recordRoundTrips: true }));
  recorder = await onServer(app, 'roundTripRecorder');
  const sku = await createSku(app, tenant, { total: 100 });
  for (let i = 0; i < 30; i++) {
    const user = await createLicenseUser(app, tenant);
    if (i % 3 !== 0) await giveLicense(app, tenant, user, sku);
  }
}, 60_000);
afterAll(() => app?.stop()); // the recorder is removed with its server
afterEach(() => recorder?.clearDelays());

const restList = (key: string) => async () => {
  const res = await app.request<{ data: unknown[] }>('GET', `/v1/tenants/${tenant.id}/users?limit=25`, {
    key,
  });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(25);
};
const graphqlList = (key: string) => async () => {
  const res = await app.graphql<{ users: { items: unknown[] } }>(key, LIST_USERS, {
    tenantId: tenant.id,
    limit: 25,
  });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data?.users.items).toHaveLength(25);
};

function expectBudget(sent: SentStatement[], budget: { total: number; sequential: number }): void {
  const shown = describeStatements(sent).join('\n');
  expect({ total: roundTrips(sent), sequential: sequentialRoundTrips(sent), shown }).toEqual({
    ...budget,
    shown,
  });
}

describe('a users list with a key this process knows (the steady state)', () => {
  it.each([
    ['REST GET /v1/tenants/:id/users', restList],
    ['GraphQL users', graphqlList],
  ])(
    '%s: two round trips, the count and the page, and the page does not wait for the count',
    async (_name, list) => {
      await list(org.keys.read)(); // the key is read once, then cached
      recorder.delayAnswers(RATE_LIMIT_SQL, COUNT_ANSWER_DELAY_MS);
      const sent = await recorder.during(list(org.keys.read));
      // Authentication from the cache, no row-level-security settings (the connection carries them), no
      // BEGIN/COMMIT: the counter's UPSERT, and the page with its total and license ids in one statement, sent
      // while the count is in flight.
      expectBudget(sent, { total: 2, sequential: 1 });
      expect(sent[0].sql).toMatch(RATE_LIMIT_SQL);
      expect(sent[1].sql).toMatch(/lean_page/);
    },
  );
});

it('a key seen for the first time costs its lookup (and the lastUsedAt write) once', async () => {
  const fresh = await createApiKey(app, org.scope, PermissionLevel.READ);
  const first = await recorder.during(restList(fresh.secret));
  const shown = describeStatements(first).join('\n');
  expect(first.filter((s) => /from api_keys k/.test(s.sql))).toHaveLength(1);
  expect({ total: roundTrips(first), shown }).toEqual({
    total: first.some((s) => /set_config/.test(s.sql)) ? 5 : 4,
    shown,
  });
  // The first request's lastUsedAt write is not awaited (api-key.auth.ts) and runs on a pooled connection outside
  // any organization's session: once it lands, the connection it used no longer carries the row-level-security
  // settings. Waited for, then one request of a cached key puts them back on the connection the pool hands out
  // next (the most recently released), so the budget below is the cached key's, as in the test above.
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ written: boolean }>(
        'select last_used_at is not null as written from api_keys where id = $1',
        [fresh.id],
      );
      check(rows[0]?.written, 'lastUsedAt not written yet');
    },
    { what: "the fresh key's lastUsedAt write" },
  );
  await restList(org.keys.read)();
  recorder.delayAnswers(RATE_LIMIT_SQL, COUNT_ANSWER_DELAY_MS);
  expectBudget(await recorder.during(restList(fresh.secret)), { total: 2, sequential: 1 });
});

it('a mutation waits for its count before it sends anything', async () => {
  await restList(org.keys.write)(); // the key is cached: what follows is the mutation's own work
  recorder.delayAnswers(RATE_LIMIT_SQL, COUNT_ANSWER_DELAY_MS);
  const sent = await recorder.during(async () => {
    const res = await app.graphql(
      org.keys.write,
      'mutation($input: CreateTenantGroupInput!) { createTenantGroup(input: $input) { id } }',
      { input: { name: `group ${randomUUID()}` } },
    );
    expect(res.body.errors).toBeUndefined();
  });
  expect(sent[0].sql).toMatch(RATE_LIMIT_SQL);
  const writes = sent.slice(1);
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.filter((s) => s.overlapped)).toEqual([]);
});

it('every REST GET route runs a query: a read held for its count has nothing to undo if refused', async () => {
  const writing = (await onServer(app, 'restRoutes'))
    .filter(
      (route) => route.method === 'GET' && getOperationAST(parse(route.operation))?.operation !== 'query',
    )
    .map((route) => route.path);
  expect(writing).toEqual([]);
});
