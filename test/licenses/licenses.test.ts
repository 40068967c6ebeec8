import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createLicenseUser, createSku, createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  seatState,
  type AssignmentBody,
  type Envelope,
  type LicenseBody,
  type RemovalBody,
} from './license-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const MINUTE_MS = 60_000;

function assign(tenant: Tenant, body: unknown, key = org.keys.write) {
  return app.request<Envelope<AssignmentBody>>('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
    key,
    body,
  });
}

function remove(tenant: Tenant, body: unknown, key = org.keys.write) {
  return app.request<Envelope<RemovalBody>>('POST', `/v1/tenants/${tenant.id}/licenses/remove`, {
    key,
    body,
  });
}

describe('GET /v1/tenants/:id/licenses', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await createTenant(app, org.scope);
    for (const [index, name] of ['Microsoft 365 E3', 'Exchange Online', 'Teams Essentials'].entries()) {
      await createSku(app, tenant, { name, total: 10 + index, consumed: index });
    }
    await createSku(app, await createTenant(app, org.scope), { name: 'Another tenant’s SKU', total: 1 });
  });

  it('lists the tenant’s SKUs with their seats, by name, with meta', async () => {
    const res = await app.request<Envelope<LicenseBody[]>>('GET', `/v1/tenants/${tenant.id}/licenses`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 3 });
    expect(res.body.data.map((l) => l.name)).toEqual([
      'Exchange Online',
      'Microsoft 365 E3',
      'Teams Essentials',
    ]);
    expect(res.body.data[1]).toEqual({
      skuId: expect.any(String),
      skuPartNumber: expect.any(String),
      name: 'Microsoft 365 E3',
      total: 10,
      consumed: 0,
      available: 10,
    });
    expect(res.body.data[0]).toMatchObject({ total: 11, consumed: 1, available: 10 });
  });

  it('pages (a page past the end is empty with the true total) and refuses limit=101', async () => {
    const second = await app.request<Envelope<LicenseBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses?page=2&limit=2`,
      { key: org.keys.read },
    );
    expect(second.body.data.map((l) => l.name)).toEqual(['Teams Essentials']);
    expect(second.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
    const past = await app.request<Envelope<LicenseBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses?page=5`,
      {
        key: org.keys.read,
      },
    );
    expect(past.body).toMatchObject({ data: [], meta: { page: 5, total: 3 } });

    const tooMany = await app.request<Envelope<unknown>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses?limit=101`,
      {
        key: org.keys.read,
      },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error?.code).toBe('INVALID_REQUEST');
    expect(tooMany.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('serves the same list through GraphQL', async () => {
    const res = await app.graphql<{ licenses: { items: LicenseBody[]; pageInfo: unknown } }>(
      org.keys.read,
      `query($tenantId: UUID!) { licenses(tenantId: $tenantId, limit: 2) {
         items { skuId skuPartNumber name total consumed available } pageInfo { page limit total } } }`,
      { tenantId: tenant.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.licenses.pageInfo).toEqual({ page: 1, limit: 2, total: 3 });
    expect(res.body.data?.licenses.items.map((l) => l.name)).toEqual(['Exchange Online', 'Microsoft 365 E3']);
    const tooMany = await app.graphql(
      org.keys.read,
      'query($t: UUID!) { licenses(tenantId: $t, limit: 101) { items { skuId } } }',
      { t: tenant.id },
    );
    expect(tooMany.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });

  it('costs the same number of SQL statements for 10 or 100 rows', async () => {
    const big = await createTenant(app, org.scope);
    for (let i = 0; i < 100; i++)
      await createSku(app, big, { total: 5, name: `SKU ${String(i).padStart(3, '0')}` });
    const small = await app.sql.during(() =>
      app.request('GET', `/v1/tenants/${big.id}/licenses?limit=10`, { key: org.keys.read }),
    );
    const large = await app.sql.during(async () => {
      const res = await app.request<Envelope<LicenseBody[]>>(
        'GET',
        `/v1/tenants/${big.id}/licenses?limit=100`,
        {
          key: org.keys.read,
        },
      );
      expect(res.body.data).toHaveLength(100);
    });
    expect(large).toBe(small);
  });
});

describe('POST /v1/tenants/:id/licenses/assign', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await createTenant(app, org.scope, { name: 'Contoso' });
  });

  it('assigns a seat (200, the assignment), tells the cloud and emits license.assigned', async () => {
    const sku = await createSku(app, tenant, { total: 3, skuPartNumber: 'ENTERPRISEPACK' });
    const user = await createLicenseUser(app, tenant);
    const res = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        userId: user.id,
        skuId: sku.skuId,
        assignedAt: app.clock.now().toISOString(),
      },
    });
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 1,
      assignments: 1,
      cloudAssignments: 1,
      assignedEvents: 1,
    });
    const { rows } = await app.pool.query<{ payload: Record<string, unknown> }>(
      `select payload from domain_events where kind = 'license.assigned' and payload->'details'->>'userId' = $1`,
      [user.id],
    );
    expect(rows[0].payload).toMatchObject({
      event: 'license.assigned',
      severity: 'informational',
      tenant: { id: tenant.id, name: 'Contoso', domain: tenant.domain },
      details: { userId: user.id, skuId: sku.skuId, skuPartNumber: 'ENTERPRISEPACK' },
      actionUrl: `http://app.test/tenants/${tenant.id}/licenses/assignments`,
    });
  });

  it('is idempotent: a license already held answers 200 with the same assignment and takes no seat', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant);
    const first = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    app.clock.advance(MINUTE_MS);
    const again = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 1,
      assignments: 1,
      assignedEvents: 1,
    });
  });

  it('refuses a user without a usage location (409 naming usageLocation) and writes nothing', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant, { usageLocation: null });
    const res = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe('CONFLICT');
    expect(res.body.error?.message).toMatch(/usageLocation/);
    expect(res.body.error?.details).toMatchObject({ userId: user.id, field: 'usageLocation' });
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 0,
      assignments: 0,
      cloudAssignments: 0,
      assignedEvents: 0,
    });
  });

  it('refuses a service account (409 naming the reason)', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant, { isServiceAccount: true });
    const res = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toMatch(/service account/);
    expect(res.body.error?.details).toMatchObject({ field: 'isServiceAccount' });
    expect((await seatState(app, tenant.id, sku.skuId)).assignments).toBe(0);
  });

  it('refuses when no seat is free (409 with skuId, total, consumed)', async () => {
    const sku = await createSku(app, tenant, { total: 2, consumed: 2 });
    const user = await createLicenseUser(app, tenant);
    const res = await assign(tenant, { userId: user.id, skuId: sku.skuId });
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toEqual({ skuId: sku.skuId, total: 2, consumed: 2 });
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({ consumed: 2, cloudAssignments: 0 });
  });

  it('answers 404 for an unknown SKU, a deleted user and a user of another tenant', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant);
    const deleted = await createLicenseUser(app, tenant, { deletedAt: app.clock.now() });
    const elsewhere = await createLicenseUser(app, await createTenant(app, org.scope));
    const cases = [
      { userId: user.id, skuId: '00000000-0000-4000-8000-000000000000' },
      { userId: deleted.id, skuId: sku.skuId },
      { userId: elsewhere.id, skuId: sku.skuId },
    ];
    for (const body of cases) {
      const res = await assign(tenant, body);
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
    expect((await seatState(app, tenant.id, sku.skuId)).consumed).toBe(0);
  });

  it.each([
    ['a missing skuId', { userId: 'USER' }, 'skuId'],
    ['a userId that is not a UUID', { userId: 'not-a-uuid', skuId: 'SKU' }, 'userId'],
    ['an unknown field', { userId: 'USER', skuId: 'SKU', seats: 2 }, 'seats'],
  ])('answers 400 naming the field for %s and writes nothing', async (_case, template, field) => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant);
    const body = JSON.parse(
      JSON.stringify(template).replace('USER', user.id).replace('SKU', sku.skuId),
    ) as object;
    const res = await assign(tenant, body);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field })]);
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({ consumed: 0, assignments: 0 });
  });

  it('answers 400 for malformed JSON and writes nothing', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const res = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
      key: org.keys.write,
      rawBody: `{"userId": "x", "skuId": "${sku.skuId}"`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'body' })]);
    expect((await seatState(app, tenant.id, sku.skuId)).consumed).toBe(0);
  });

  it('needs write:licenses: a Read key gets 403 and nothing is written', async () => {
    const sku = await createSku(app, tenant, { total: 3 });
    const user = await createLicenseUser(app, tenant);
    const res = await assign(tenant, { userId: user.id, skuId: sku.skuId }, org.keys.read);
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('FORBIDDEN');
    const removal = await remove(tenant, { userId: user.id, skuId: sku.skuId }, org.keys.read);
    expect(removal.status).toBe(403);
    expect((await seatState(app, tenant.id, sku.skuId)).consumed).toBe(0);
  });

  it('works through GraphQL with the same rules and error codes', async () => {
    const sku = await createSku(app, tenant, { total: 1 });
    const user = await createLicenseUser(app, tenant);
    const noLocation = await createLicenseUser(app, tenant, { usageLocation: null });
    const mutation = `mutation($t: UUID!, $input: LicenseAssignmentInput!) {
      assignLicense(tenantId: $t, input: $input) { id userId skuId assignedAt } }`;
    const refused = await app.graphql(org.keys.write, mutation, {
      t: tenant.id,
      input: { userId: noLocation.id, skuId: sku.skuId },
    });
    expect(refused.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'usageLocation' },
    });
    const res = await app.graphql<{ assignLicense: AssignmentBody }>(org.keys.write, mutation, {
      t: tenant.id,
      input: { userId: user.id, skuId: sku.skuId },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.assignLicense).toMatchObject({ userId: user.id, skuId: sku.skuId });
    const forbidden = await app.graphql(org.keys.read, mutation, {
      t: tenant.id,
      input: { userId: user.id, skuId: sku.skuId },
    });
    expect(forbidden.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('POST /v1/tenants/:id/licenses/remove', () => {
  it('removes the license, returns the seat, tells the cloud and emits license.removed', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 1 });
    const [holder, waiting] = [await createLicenseUser(app, tenant), await createLicenseUser(app, tenant)];
    expect((await assign(tenant, { userId: holder.id, skuId: sku.skuId })).status).toBe(200);
    expect((await assign(tenant, { userId: waiting.id, skuId: sku.skuId })).status).toBe(409);

    const res = await remove(tenant, { userId: holder.id, skuId: sku.skuId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      userId: holder.id,
      skuId: sku.skuId,
      removed: true,
      removedAt: app.clock.now().toISOString(),
    });
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 0,
      assignments: 0,
      cloudAssignments: 0,
      removedEvents: 1,
    });
    expect((await assign(tenant, { userId: waiting.id, skuId: sku.skuId })).status).toBe(200);
  });

  it('is idempotent: removing a license the user does not hold answers 200 with removed: false', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 2, consumed: 1 });
    const user = await createLicenseUser(app, tenant);
    const res = await remove(tenant, { userId: user.id, skuId: sku.skuId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ removed: false, removedAt: null });
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({ consumed: 1, removedEvents: 0 });
  });

  it('works through GraphQL', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 2 });
    const user = await createLicenseUser(app, tenant);
    await assign(tenant, { userId: user.id, skuId: sku.skuId });
    const res = await app.graphql<{ removeLicense: RemovalBody }>(
      org.keys.write,
      `mutation($t: UUID!, $input: LicenseAssignmentInput!) {
         removeLicense(tenantId: $t, input: $input) { userId skuId removed removedAt } }`,
      { t: tenant.id, input: { userId: user.id, skuId: sku.skuId } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.removeLicense).toMatchObject({ removed: true });
    expect((await seatState(app, tenant.id, sku.skuId)).consumed).toBe(0);
  });
});

describe('GET /v1/tenants/:id/licenses/assignments', () => {
  let tenant: Tenant;
  let skus: Array<{ skuId: string }>;
  let users: Array<{ id: string }>;

  beforeAll(async () => {
    tenant = await createTenant(app, org.scope);
    skus = [await createSku(app, tenant, { total: 10 }), await createSku(app, tenant, { total: 10 })];
    users = [];
    for (let i = 0; i < 3; i++)
      users.push(await createLicenseUser(app, tenant, { displayName: `Holder ${i}` }));
    // Six assignments, one minute apart: user 0/sku 0 is the oldest, user 2/sku 1 the newest.
    for (const user of users) {
      for (const sku of skus) {
        app.clock.advance(MINUTE_MS);
        expect((await assign(tenant, { userId: user.id, skuId: sku.skuId })).status).toBe(200);
      }
    }
  });

  it('lists newest first with meta', async () => {
    const res = await app.request<Envelope<AssignmentBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses/assignments?limit=4`,
      { key: org.keys.read },
    );
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 4, total: 6 });
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      userId: users[2].id,
      skuId: skus[1].skuId,
      assignedAt: expect.any(String),
    });
    const times = res.body.data.map((a) => a.assignedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by userId and by skuId', async () => {
    const byUser = await app.request<Envelope<AssignmentBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses/assignments?userId=${users[1].id}`,
      { key: org.keys.read },
    );
    expect(byUser.body.meta?.total).toBe(2);
    expect(byUser.body.data.every((a) => a.userId === users[1].id)).toBe(true);
    const both = await app.request<Envelope<AssignmentBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/licenses/assignments?userId=${users[1].id}&skuId=${skus[0].skuId}`,
      { key: org.keys.read },
    );
    expect(both.body.data).toEqual([expect.objectContaining({ userId: users[1].id, skuId: skus[0].skuId })]);
  });

  it('answers 400 for a filter that is not a UUID and for limit=101', async () => {
    for (const [query, field] of [
      ['userId=bob', 'userId'],
      ['limit=101', 'limit'],
    ]) {
      const res = await app.request<Envelope<unknown>>(
        'GET',
        `/v1/tenants/${tenant.id}/licenses/assignments?${query}`,
        { key: org.keys.read },
      );
      expect(res.status).toBe(400);
      expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field })]);
    }
  });

  it('serves the same list through GraphQL', async () => {
    const res = await app.graphql<{ licenseAssignments: { items: AssignmentBody[]; pageInfo: unknown } }>(
      org.keys.read,
      `query($t: UUID!, $s: UUID) { licenseAssignments(tenantId: $t, skuId: $s) {
         items { id userId skuId assignedAt } pageInfo { page limit total } } }`,
      { t: tenant.id, s: skus[0].skuId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.licenseAssignments.pageInfo).toEqual({ page: 1, limit: 25, total: 3 });
    expect(res.body.data?.licenseAssignments.items.map((a) => a.userId)).toEqual(
      [...users].reverse().map((u) => u.id),
    );
  });

  it('costs the same number of SQL statements for 10 or 100 rows', async () => {
    const big = await createTenant(app, org.scope);
    const sku = await createSku(app, big, { total: 200 });
    const values: string[] = [];
    for (let i = 0; i < 100; i++) {
      const user = await createLicenseUser(app, big);
      values.push(
        `(gen_random_uuid(), '${org.scope.organizationId}', '${org.scope.environment}', '${big.id}', '${user.id}', '${sku.skuId}', now() - interval '${i} minutes')`,
      );
    }
    await app.pool.query(
      `insert into license_assignments (id, organization_id, environment, tenant_id, user_id, sku_id, assigned_at)
       values ${values.join(', ')}`,
    );
    const path = `/v1/tenants/${big.id}/licenses/assignments`;
    const small = await app.sql.during(() => app.request('GET', `${path}?limit=10`, { key: org.keys.read }));
    const large = await app.sql.during(async () => {
      const res = await app.request<Envelope<unknown[]>>('GET', `${path}?limit=100`, { key: org.keys.read });
      expect(res.body.data).toHaveLength(100);
    });
    expect(large).toBe(small);
  });
});

describe('isolation between organizations', () => {
  it('answers 404 on every route for a tenant of another organization', async () => {
    const foreign = await createTenant(app, other.scope);
    const sku = await createSku(app, foreign, { total: 3 });
    const user = await createLicenseUser(app, foreign);
    const body = { userId: user.id, skuId: sku.skuId };
    const base = `/v1/tenants/${foreign.id}/licenses`;
    for (const [method, path] of [
      ['GET', base],
      ['GET', `${base}/assignments`],
      ['POST', `${base}/assign`],
      ['POST', `${base}/remove`],
    ]) {
      const res = await app.request<Envelope<unknown>>(method, path, {
        key: org.keys.admin,
        body: method === 'POST' ? body : undefined,
      });
      expect({ method, path, status: res.status, code: res.body.error?.code }).toEqual({
        method,
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    expect((await seatState(app, foreign.id, sku.skuId)).consumed).toBe(0);
  });

  it('answers 404 for a user of another organization in one of our tenants', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 3 });
    const foreignUser = await createLicenseUser(app, await createTenant(app, other.scope));
    const res = await assign(tenant, { userId: foreignUser.id, skuId: sku.skuId });
    expect(res.status).toBe(404);
    expect(res.body.error?.details).toMatchObject({ resource: 'User' });
    const gql = await app.graphql(
      org.keys.write,
      `mutation($t: UUID!, $input: LicenseAssignmentInput!) { removeLicense(tenantId: $t, input: $input) { removed } }`,
      { t: tenant.id, input: { userId: foreignUser.id, skuId: sku.skuId } },
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
