import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createSku, createTenant, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { DAY, listDeleted, softDelete } from './deleted-user-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let licensed: User;
let plain: User;
let active: User;
let firstDeletedAt: Date;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  licensed = await createUser(app, tenant, { firstName: 'Lena', lastName: 'Licensed' });
  plain = await createUser(app, tenant, { firstName: 'Paul', lastName: 'Plain' });
  active = await createUser(app, tenant);
  await giveLicense(app, tenant, licensed, await createSku(app, tenant, { total: 5 }));
  // A deleted user of another tenant of the same organization is not listed here.
  const elsewhere = await createTenant(app, org.scope);
  await softDelete(app, org.keys.admin, elsewhere, await createUser(app, elsewhere));

  firstDeletedAt = app.clock.now();
  await softDelete(app, org.keys.admin, tenant, licensed);
  app.clock.advance(3 * DAY);
  await softDelete(app, org.keys.admin, tenant, plain);
});
afterAll(() => app.stop());

describe('GET /api/identity/users/deleted', () => {
  it('lists the tenant’s deleted users, newest deletion first, with the fields of SPEC 2.6', async () => {
    const res = await listDeleted(app, org.keys.read, tenant.id);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 2 });
    expect(res.body.data).toEqual([
      {
        id: plain.id,
        tenantId: tenant.id,
        displayName: 'Paul Plain',
        userPrincipalName: plain.userPrincipalName,
        userType: 'Member',
        deletedAt: app.clock.now().toISOString(),
        deletedBy: apiKeyActor('Admin key'),
        daysRemaining: 30,
        permanentDeletionAt: new Date(app.clock.now().getTime() + 30 * DAY).toISOString(),
        hadLicenses: false,
      },
      expect.objectContaining({
        id: licensed.id,
        displayName: 'Lena Licensed',
        deletedAt: firstDeletedAt.toISOString(),
        daysRemaining: 27,
        hadLicenses: true,
      }),
    ]);
    expect(res.body.data.map((user) => user.id)).not.toContain(active.id);
  });

  it('counts days remaining down with the clock (rounded up); a user past its window is no longer listed', async () => {
    const remaining = async () => {
      const res = await listDeleted(app, org.keys.read, tenant.id);
      return Object.fromEntries(res.body.data.map((user) => [user.id, user.daysRemaining]));
    };
    const start = app.clock.now();
    try {
      app.clock.advance(1); // a millisecond after the second deletion: still 30 whole days to go, rounded up
      expect(await remaining()).toEqual({ [plain.id]: 30, [licensed.id]: 27 });
      app.clock.advance(DAY);
      expect(await remaining()).toEqual({ [plain.id]: 29, [licensed.id]: 26 });
      app.clock.set(new Date(firstDeletedAt.getTime() + 30 * DAY - 1));
      expect(await remaining()).toEqual({ [plain.id]: 4, [licensed.id]: 1 });
      // The first deletion's window ends: not purged yet, but no longer restorable, so no longer listed.
      app.clock.set(new Date(firstDeletedAt.getTime() + 30 * DAY));
      expect(await remaining()).toEqual({ [plain.id]: 3 });
      expect((await listDeleted(app, org.keys.read, tenant.id)).body.meta?.total).toBe(1);
      app.clock.set(new Date(firstDeletedAt.getTime() + 40 * DAY));
      expect(await remaining()).toEqual({});
      expect(await app.pool.query('select 1 from users where id = $1', [licensed.id])).toMatchObject({
        rowCount: 1,
      });
    } finally {
      app.clock.set(start);
    }
  });

  it('pages with meta, and a page past the end is empty with the true total', async () => {
    const first = await listDeleted(app, org.keys.read, tenant.id, '?limit=1');
    expect(first.body.data.map((user) => user.id)).toEqual([plain.id]);
    expect(first.body.meta).toEqual({ page: 1, limit: 1, total: 2 });
    const second = await listDeleted(app, org.keys.read, tenant.id, '?limit=1&page=2');
    expect(second.body.data.map((user) => user.id)).toEqual([licensed.id]);
    const past = await listDeleted(app, org.keys.read, tenant.id, '?limit=1&page=9');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], meta: { page: 9, limit: 1, total: 2 } });
  });

  it('answers an empty list for a tenant with no deleted users', async () => {
    const empty = await createTenant(app, org.scope);
    const res = await listDeleted(app, org.keys.read, empty.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });

  it('refuses a limit out of range with 400 naming it', async () => {
    for (const query of ['?limit=101', '?limit=0', '?page=0', '?limit=ten']) {
      const res = await listDeleted(app, org.keys.read, tenant.id, query);
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      const fields = (res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field);
      expect(fields).toEqual([query.slice(1, query.indexOf('='))]);
    }
  });

  it('needs X-Tenant-Id (or ?tenantId=): 400 naming it', async () => {
    const res = await app.request<{ error?: { code: string; details: { fields: unknown[] } } }>(
      'GET',
      '/api/identity/users/deleted',
      { key: org.keys.read },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
  });

  it('hides another organization’s tenant (404), however it asks', async () => {
    const res = await listDeleted(app, other.keys.admin, tenant.id);
    expect(res.status).toBe(404);
    expect(res.body.error?.code).toBe('NOT_FOUND');
  });

  it('costs the same SQL statements at limit=1 and limit=25', async () => {
    const many = await createTenant(app, org.scope);
    for (let i = 0; i < 12; i++) await softDelete(app, org.keys.admin, many, await createUser(app, many));
    const read = async (limit: number) => {
      const res = await listDeleted(app, org.keys.read, many.id, `?limit=${limit}`);
      expect(res.body.data).toHaveLength(Math.min(limit, 12));
    };
    await read(1); // warm-up: the key is verified and cached
    const small = await app.sql.during(() => read(1));
    const large = await app.sql.during(() => read(25));
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  });
});

describe('GraphQL deletedUsers', () => {
  const QUERY = `query($t: UUID!, $limit: Int) {
    deletedUsers(tenantId: $t, limit: $limit) {
      items { id userType daysRemaining hadLicenses deletedAt }
      pageInfo { total }
    }
  }`;

  it('lists with UPPER_SNAKE enums, for a Read key', async () => {
    const res = await app.graphql<{
      deletedUsers: {
        items: Array<{
          id: string;
          userType: string;
          daysRemaining: number;
          hadLicenses: boolean;
          deletedAt: string;
        }>;
        pageInfo: { total: number };
      };
    }>(org.keys.read, QUERY, { t: tenant.id, limit: 5 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.deletedUsers.pageInfo.total).toBe(2);
    expect(res.body.data?.deletedUsers.items[0]).toEqual({
      id: plain.id,
      userType: 'MEMBER',
      daysRemaining: 30,
      hadLicenses: false,
      deletedAt: app.clock.now().toISOString(),
    });
  });

  it('gives NOT_FOUND to another organization', async () => {
    const res = await app.graphql(other.keys.read, QUERY, { t: tenant.id });
    expect(res.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
