import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createSku, createTenant, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { USER_WIRE_FIELDS, type Envelope, type UserBody } from './user-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let newest: User;
let deleted: User;
const USER_COUNT = 30;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  for (let i = 0; i < USER_COUNT; i++) {
    newest = await createUser(app, tenant, {
      firstName: 'Person',
      lastName: String(i).padStart(2, '0'),
      createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
    });
  }
  deleted = await createUser(app, tenant, {
    lastName: 'Deleted',
    createdAt: new Date(Date.UTC(2026, 5, 1)),
    deletedAt: new Date(Date.UTC(2026, 6, 1)),
  });
});
afterAll(() => app.stop());

describe('GET /v1/tenants/:id/users', () => {
  it('lists users newest first with the default page size, the envelope and meta of SPEC 2.1/8.2', async () => {
    const res = await app.request<Envelope<UserBody[]>>('GET', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: USER_COUNT });
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0]).toMatchObject({
      id: newest.id,
      tenantId: tenant.id,
      displayName: 'Person 29',
      accountStatus: 'Enabled',
      mfaStatus: 'Disabled',
      userType: 'Member',
      source: 'Cloud',
      isServiceAccount: false,
      licenses: [],
      createdAt: '2026-01-30T00:00:00.000Z',
    });
    expect(Object.keys(res.body.data[0]).sort()).toEqual([...USER_WIRE_FIELDS].sort());
  });

  it('pages; a page past the end is empty with the true total; soft-deleted users never appear', async () => {
    const second = await app.request<Envelope<UserBody[]>>(
      'GET',
      `/v1/tenants/${tenant.id}/users?page=2&limit=25`,
      { key: org.keys.read },
    );
    expect(second.body.data.map((u) => u.lastName)).toEqual(['04', '03', '02', '01', '00']);
    const all = await app.request<Envelope<UserBody[]>>('GET', `/v1/tenants/${tenant.id}/users?limit=100`, {
      key: org.keys.read,
    });
    expect(all.body.data.map((u) => u.id)).not.toContain(deleted.id);
    const past = await app.request<Envelope<UserBody[]>>('GET', `/v1/tenants/${tenant.id}/users?page=5`, {
      key: org.keys.read,
    });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toEqual({ page: 5, limit: 25, total: USER_COUNT });
  });

  it.each([
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['page=0', 'page'],
    ['limit=ten', 'limit'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const res = await app.request<Envelope<unknown>>('GET', `/v1/tenants/${tenant.id}/users?${query}`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field })]),
    );
  });

  it('answers 404 for a tenant of another organization, another environment, or not a UUID', async () => {
    const live = await createTenant(app, org.liveScope);
    for (const [key, path] of [
      [other.keys.admin, `/v1/tenants/${tenant.id}/users`],
      [org.keys.admin, `/v1/tenants/${live.id}/users`],
      [org.keys.admin, '/v1/tenants/not-a-uuid/users'],
    ]) {
      const res = await app.request<Envelope<unknown>>('GET', path, { key });
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
  });

  it('costs the same number of SQL statements for 10 and 100 users, licenses included', async () => {
    const bigTenant = await createTenant(app, org.scope);
    const sku = await createSku(app, bigTenant, { total: 200 });
    const secondSku = await createSku(app, bigTenant, { total: 10 });
    let twoLicenses = '';
    for (let i = 0; i < 100; i++) {
      const user = await createUser(app, bigTenant, { createdAt: new Date(Date.UTC(2026, 1, 1, 0, i)) });
      if (i === 99) {
        // Assigned in the other order than the SKUs were created: the list keeps the oldest assignment first.
        await giveLicense(app, bigTenant, user, secondSku);
        app.clock.advance(1_000);
        twoLicenses = user.id;
      }
      if (i % 3 === 0) await giveLicense(app, bigTenant, user, sku);
    }
    const list = (limit: number) =>
      app.request<Envelope<UserBody[]>>('GET', `/v1/tenants/${bigTenant.id}/users?limit=${limit}`, {
        key: org.keys.read,
      });
    // Warm up once: the first request of a key may do one-off work (e.g. record its last use).
    await list(1);
    let small: Envelope<UserBody[]> | undefined;
    let large: Envelope<UserBody[]> | undefined;
    const smallCount = await app.sql.during(async () => (small = (await list(10)).body));
    const largeCount = await app.sql.during(async () => (large = (await list(100)).body));
    expect(small?.data).toHaveLength(10);
    expect(large?.data).toHaveLength(100);
    expect(large?.data.filter((u) => u.licenses.length >= 1)).toHaveLength(34);
    expect(largeCount).toBe(smallCount);
    // the page with its total and every listed user's SKU ids: one statement
    expect(smallCount).toBe(1);
    // The same SKU ids, in the same order, as one user's own read (which goes through the licenses loader).
    const listed = large?.data.find((u) => u.id === twoLicenses);
    expect(listed?.licenses).toEqual([secondSku.skuId, sku.skuId]);
    const single = await app.request<Envelope<UserBody>>(
      'GET',
      `/v1/tenants/${bigTenant.id}/users/${twoLicenses}`,
      { key: org.keys.read },
    );
    expect(single.body.data?.licenses).toEqual(listed?.licenses);
  });
});

describe('GET /v1/tenants/:id/users/:userId', () => {
  it('returns the user with its licenses', async () => {
    const sku = await createSku(app, tenant, { total: 5 });
    const user = await createUser(app, tenant, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      jobTitle: 'Engineer',
    });
    await giveLicense(app, tenant, user, sku);
    const res = await app.request<Envelope<UserBody>>('GET', `/v1/tenants/${tenant.id}/users/${user.id}`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toBeUndefined();
    expect(res.body.data).toMatchObject({
      id: user.id,
      displayName: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      jobTitle: 'Engineer',
      department: null,
      usageLocation: 'US',
      licenses: [sku.skuId],
      lastSignInAt: null,
    });
  });

  it('answers 404 for a deleted user, a user of another tenant, and for another organization', async () => {
    const otherTenant = await createTenant(app, org.scope);
    const elsewhere = await createUser(app, otherTenant);
    const user = await createUser(app, tenant);
    for (const [key, path] of [
      [org.keys.read, `/v1/tenants/${tenant.id}/users/${deleted.id}`],
      [org.keys.read, `/v1/tenants/${tenant.id}/users/${elsewhere.id}`],
      [other.keys.admin, `/v1/tenants/${tenant.id}/users/${user.id}`],
      [org.keys.read, `/v1/tenants/${tenant.id}/users/nope`],
    ]) {
      const res = await app.request<Envelope<unknown>>('GET', path, { key });
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
  });
});

describe('GraphQL users and user', () => {
  const LIST = `query($tenantId: UUID!, $page: Int, $limit: Int) {
    users(tenantId: $tenantId, page: $page, limit: $limit) {
      items { id displayName accountStatus userType source licenses }
      pageInfo { page limit total }
    }
  }`;

  it('serves the same list with UPPER_SNAKE enums and pageInfo', async () => {
    const res = await app.graphql<{
      users: { items: Array<Record<string, unknown>>; pageInfo: unknown };
    }>(org.keys.read, LIST, { tenantId: tenant.id, limit: 2 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.users.pageInfo).toEqual({ page: 1, limit: 2, total: expect.any(Number) });
    expect(res.body.data?.users.items[0]).toMatchObject({
      accountStatus: 'ENABLED',
      userType: 'MEMBER',
      source: 'CLOUD',
      licenses: expect.any(Array),
    });
  });

  it('gives INVALID_REQUEST for limit=101 and NOT_FOUND for another organization', async () => {
    const tooMany = await app.graphql(org.keys.read, LIST, { tenantId: tenant.id, limit: 101 });
    expect(tooMany.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    const foreign = await app.graphql(org.keys.read, LIST.replace('$limit: Int', '$limit: Int = 1'), {
      tenantId: (await createTenant(app, other.scope)).id,
    });
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('reads one user, and not a deleted one', async () => {
    const query = 'query($t: UUID!, $id: UUID!) { user(tenantId: $t, id: $id) { id userPrincipalName } }';
    const ok = await app.graphql<{ user: { id: string } }>(org.keys.read, query, {
      t: tenant.id,
      id: newest.id,
    });
    expect(ok.body.data?.user).toEqual({ id: newest.id, userPrincipalName: newest.userPrincipalName });
    const gone = await app.graphql(org.keys.read, query, { t: tenant.id, id: deleted.id });
    expect(gone.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
