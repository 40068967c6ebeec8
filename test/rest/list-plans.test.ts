import { EXACT_TOTAL_LIMIT } from '../../src/core/page-size.js';
import { PermissionLevel } from '../../src/core/permissions.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import {
  createApiKey,
  createMember,
  createOAuthClient,
  createSku,
  createTenant,
  createUser,
  giveLicense,
} from '../factories/shared.js';
import { expectListReadsItsPage, multiplyRows } from '../helpers/list-plan.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { createGuest } from '../users/guest-kit.js';
import { createPolicy, insertBlockedAttempt } from '../device-management/device-management-kit.js';
import { commitEvent, createWebhook } from '../webhooks/webhook-kit.js';

/**
 * Issue #11: every list reads its page through an ordered index, O(limit) rows, on a tenant of a few thousand
 * rows (plus the total by a separate count). The plans come from EXPLAIN ANALYZE of the statements each request
 * really sent, run as the request ran them (application role, row-level security policies), so a new index, query
 * or ORM change that reads the whole tenant per page fails here. A server of the file's own (the plans depend on
 * the whole tables' statistics, so a database of its own), built in the worker's realm (realm-suite.ts).
 */
const ROWS = 3000;

let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let webhookId: string;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({
    webhooks: { resolveHost: async () => ['93.184.215.14'] },
    tenant: true,
  }));
  await multiplyRows(app, 'tenants', (await createTenant(app, org.scope)).id, ROWS);
  // Every tenant with its stored aggregates, so the tenant list's health signals (one stored row per tenant,
  // docs/tenant-health.md) are read, not absent.
  // (The full recount: none of these tenants has its row yet.)
  await onServer(app, 'recountAllTenants');
  await app.pool.query('analyze portal_tenant_aggregates');

  const user = await createUser(app, tenant);
  await multiplyRows(app, 'users', user.id, ROWS);
  await multiplyRows(app, 'users', (await createUser(app, tenant, { deletedAt: app.clock.now() })).id, ROWS);
  await multiplyRows(app, 'users', (await createGuest(app, tenant)).id, ROWS);
  await multiplyRows(app, 'blocked_enrollment_attempts', await insertBlockedAttempt(app, tenant), ROWS);
  const policy = await createPolicy(app, org.keys.write, tenant, {
    name: 'Probe',
    restrictionType: 'Device Limit Restrictions',
    assignedToAllUsers: true,
    deviceLimit: 3,
  });
  await multiplyRows(app, 'enrollment_restrictions', policy.id, ROWS);

  const sku = await createSku(app, tenant, { total: 10 * ROWS });
  await multiplyRows(app, 'tenant_licenses', (await createSku(app, tenant, { total: 1 })).id, ROWS);
  await giveLicense(app, tenant, user, sku);
  // One assignment per user of the tenant: a copy of the first with another user.
  await app.pool.query(
    `insert into license_assignments select (t).* from (
       select jsonb_populate_record(a, jsonb_build_object('id', gen_random_uuid(), 'user_id', u.id)) as t
         from license_assignments a join users u on u.tenant_id = a.tenant_id and u.id <> a.user_id
        where a.user_id = $1 and u.deleted_at is null) copies`,
    [user.id],
  );
  await app.pool.query('analyze license_assignments');

  await multiplyRows(app, 'api_keys', (await createApiKey(app, org.scope, PermissionLevel.READ)).id, ROWS);
  await multiplyRows(
    app,
    'oauth_clients',
    (await createOAuthClient(app, org.scope, { name: 'Client' })).id,
    ROWS,
  );
  await multiplyRows(app, 'members', (await createMember(app, org.organization.id)).id, ROWS);
  const webhook = await createWebhook(app, org.keys.admin, {
    url: 'https://hooks.example.com/a',
    events: ['*'],
  });
  webhookId = webhook.id;
  await multiplyRows(app, 'webhooks', webhook.id, ROWS);
  await commitEvent(app, org.scope, { details: { n: 1 } });
  const [delivery] = (
    await app.pool.query<{ id: string }>('select id from webhook_deliveries where webhook_id = $1', [
      webhookId,
    ])
  ).rows;
  // One delivery per event: copies of the event, then a copy of the delivery for each.
  const [{ event_id: eventId }] = (
    await app.pool.query<{ event_id: string }>('select event_id from webhook_deliveries where id = $1', [
      delivery.id,
    ])
  ).rows;
  await multiplyRows(app, 'domain_events', eventId, ROWS);
  await app.pool.query(
    `insert into webhook_deliveries select (t).* from (
       select jsonb_populate_record(d, jsonb_build_object('id', gen_random_uuid(), 'event_id', e.id,
                'created_at', e.occurred_at)) as t
         from webhook_deliveries d join domain_events e on e.organization_id = d.organization_id and e.id <> d.event_id
        where d.id = $1) copies`,
    [delivery.id],
  );
  await app.pool.query('analyze webhook_deliveries');
}, 120_000);
afterAll(() => app.stop());

const LIMIT = 25;

/**
 * Runs `fill` with `table`'s non-unique indexes dropped and leaves them dropped (multiplyRows reads the unique ones
 * to make the copies unique). Kept up row by row, the users table's 17 indexes (four of them trigram GIN) made the
 * 101,000-row insert below about 8 s of PostgreSQL's CPU and, on a loaded machine, ran past the 30 s statement
 * timeout. Built again over the filled table they still cost 1.6 s (the B-trees; the trigram ones 2.9 s more),
 * for requests that need none of them: what the test below checks is the capped count (101,000 matching rows
 * counted by any plan, here a scan of some 115,000 rows) and the planner's row estimate, which comes from the
 * table's statistics (multiplyRows' ANALYZE), not from its indexes. The indexes' part, that each page reads O(limit) rows through
 * them, is the plan tests' above. This is the file's last test; the database is the file's. (Not one transaction:
 * `fill` writes through the pool's other connections, which the dropped indexes' locks would block.)
 */
async function withIndexesDropped(app: RealmApp, table: string, fill: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await app.pool.query<{ name: string }>(
    `select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = $1::regclass and not x.indisunique
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
    [`public.${table}`],
  );
  for (const { name } of indexes) await app.pool.query(`drop index "${name}"`);
  await fill();
}

it.each([
  ['tenants', () => '/v1/tenants'],
  ['users of a tenant', () => `/v1/tenants/${tenant.id}/users`],
  ['licenses of a tenant', () => `/v1/tenants/${tenant.id}/licenses`],
  ['license assignments of a tenant', () => `/v1/tenants/${tenant.id}/licenses/assignments`],
  ['webhooks', () => '/v1/webhooks'],
  ['a webhook’s deliveries', () => `/v1/webhooks/${webhookId}/deliveries`],
  ['API keys', () => '/api/settings/api-keys'],
  ['OAuth clients', () => '/api/settings/oauth-clients'],
  ['members', () => '/api/settings/members'],
  ['identity users (guests)', () => `/api/identity/users?type=guest&tenantId=${tenant.id}`],
  ['deleted users', () => `/api/identity/users/deleted?tenantId=${tenant.id}`],
  ['enrollment restrictions', () => `/api/devices/enrollment-restrictions?tenantId=${tenant.id}`],
  ['blocked enrollment attempts', () => `/api/devices/enrollment-restrictions/blocked?tenantId=${tenant.id}`],
])('%s: the page is read through an index, O(limit) rows (pages 1 and 3)', async (_name, pathOf) => {
  for (const page of [1, 3]) {
    const path = `${pathOf()}${pathOf().includes('?') ? '&' : '?'}limit=${LIMIT}&page=${page}`;
    await expectListReadsItsPage(app, () => app.request('GET', path, { key: org.keys.admin }), {
      limit: LIMIT,
      offset: (page - 1) * LIMIT,
      session: org.scope,
    });
  }
});

it('GraphQL users: the page and each user’s licenses read O(limit) rows', async () => {
  const query = `query($tenantId: UUID!) { users(tenantId: $tenantId, limit: ${LIMIT}) {
    items { id licenses } pageInfo { total } } }`;
  await expectListReadsItsPage(
    app,
    async () => {
      const res = await app.graphql(org.keys.admin, query, { tenantId: tenant.id });
      return { status: res.body.errors ? 500 : res.status };
    },
    { limit: LIMIT, session: org.scope },
  );
});

it('the totals stay exact and say so', async () => {
  const res = await app.request<{ meta: Record<string, unknown> }>(
    'GET',
    `/v1/tenants/${tenant.id}/users?limit=5`,
    {
      key: org.keys.admin,
    },
  );
  expect(res.body.meta).toEqual({ page: 1, limit: 5, total: 2 * (ROWS + 1) });
});

it('above EXACT_TOTAL_LIMIT the total is the planner’s estimate, and meta and pageInfo say so', async () => {
  const huge = await createTenant(app, org.scope);
  const template = await createUser(app, huge);
  await withIndexesDropped(app, 'users', () =>
    multiplyRows(app, 'users', template.id, EXACT_TOTAL_LIMIT + 1000),
  );
  const res = await app.request<{ data: unknown[]; meta: { total: number; totalEstimated?: boolean } }>(
    'GET',
    `/v1/tenants/${huge.id}/users?limit=3`,
    { key: org.keys.admin },
  );
  expect(res.body.data).toHaveLength(3);
  expect(res.body.meta.totalEstimated).toBe(true);
  expect(res.body.meta.total).toBeGreaterThan(EXACT_TOTAL_LIMIT);
  const gql = await app.graphql<{ users: { pageInfo: { total: number; totalEstimated: boolean } } }>(
    org.keys.admin,
    `query($tenantId: UUID!) { users(tenantId: $tenantId, limit: 3) { pageInfo { total totalEstimated } } }`,
    { tenantId: huge.id },
  );
  expect(gql.body.data?.users.pageInfo.totalEstimated).toBe(true);
  // Lists below the threshold keep exact totals, flagged as such.
  const small = await app.graphql<{ users: { pageInfo: { total: number; totalEstimated: boolean } } }>(
    org.keys.admin,
    `query($tenantId: UUID!) { users(tenantId: $tenantId, limit: 3) { pageInfo { total totalEstimated } } }`,
    { tenantId: tenant.id },
  );
  expect(small.body.data?.users.pageInfo).toEqual({ total: 2 * (ROWS + 1), totalEstimated: false });
}, 60_000);
