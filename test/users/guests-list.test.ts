import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { GuestSource, InvitationStatus } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { createGuest, DAY, listGuests } from './guest-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let older: User;
let newer: User;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  const start = app.clock.now();
  older = await createGuest(app, tenant, {
    email: 'older@partner.example.org',
    createdAt: new Date(start.getTime() - 5 * DAY),
    guestSource: GuestSource.EXTERNAL_DIRECTORY,
    invitationStatus: InvitationStatus.NOT_APPLICABLE,
    invitedAt: null,
  });
  newer = await createGuest(app, tenant, {
    email: 'newer@example.com',
    invitationStatus: InvitationStatus.PENDING,
    guestSource: GuestSource.INVITED_USER,
  });
  await createUser(app, tenant); // a member: not listed
  await createGuest(app, await createTenant(app, org.scope)); // another tenant's guest: not listed
});
afterAll(() => app.stop());

describe('GET /api/identity/users?type=guest', () => {
  it('lists the tenant’s guests, newest first, with the fields of SPEC 2.6', async () => {
    const res = await listGuests(app, org.keys.read, tenant.id);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 2 });
    expect(res.body.data.map((g) => g.id)).toEqual([newer.id, older.id]);
    expect(res.body.data[1]).toEqual({
      id: older.id,
      tenantId: tenant.id,
      displayName: older.displayName,
      email: 'older@partner.example.org',
      userPrincipalName: older.userPrincipalName,
      userType: 'Guest',
      source: 'External directory',
      invitationStatus: 'N/A',
      accountStatus: 'Enabled',
      createdAt: older.createdAt.toISOString(),
      lastSignInAt: null,
      invitedBy: null,
      invitedAt: null,
      invitationSentAt: null,
      invitationAcceptedAt: null,
    });
  });

  it('filters by invitation status', async () => {
    const pending = await listGuests(app, org.keys.read, tenant.id, '?type=guest&invitationStatus=Pending');
    expect(pending.body.data.map((g) => g.id)).toEqual([newer.id]);
    const na = await listGuests(app, org.keys.read, tenant.id, '?type=guest&invitationStatus=N%2FA');
    expect(na.body.data.map((g) => g.id)).toEqual([older.id]);
    const bad = await listGuests(app, org.keys.read, tenant.id, '?type=guest&invitationStatus=PENDING');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'invitationStatus' })]);
  });

  it('needs ?type=guest: missing or another value is 400 naming type', async () => {
    for (const query of ['', '?type=member', '?type=Guest']) {
      const res = await listGuests(app, org.keys.read, tenant.id, query);
      expect(res.status).toBe(400);
      expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'type' })]);
    }
  });

  it('pages, and a page past the end is empty with the true total; bad limits are 400', async () => {
    const second = await listGuests(app, org.keys.read, tenant.id, '?type=guest&limit=1&page=2');
    expect(second.body).toMatchObject({ meta: { page: 2, limit: 1, total: 2 } });
    expect(second.body.data.map((g) => g.id)).toEqual([older.id]);
    const past = await listGuests(app, org.keys.read, tenant.id, '?type=guest&limit=1&page=7');
    expect(past.body).toMatchObject({ data: [], meta: { page: 7, total: 2 } });
    expect((await listGuests(app, org.keys.read, tenant.id, '?type=guest&limit=101')).status).toBe(400);
  });

  it('needs X-Tenant-Id (400) and hides other organizations (404); an empty tenant is an empty list', async () => {
    const missing = await app.request<{ error?: { details: { fields: unknown[] } } }>(
      'GET',
      '/api/identity/users?type=guest',
      { key: org.keys.read },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await listGuests(app, other.keys.admin, tenant.id);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const empty = await listGuests(app, org.keys.read, (await createTenant(app, org.scope)).id);
    expect(empty.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });

  it('costs the same SQL statements at limit=1 and limit=25', async () => {
    const many = await createTenant(app, org.scope);
    for (let i = 0; i < 12; i++) await createGuest(app, many);
    const read = async (limit: number) => {
      const res = await listGuests(app, org.keys.read, many.id, `?type=guest&limit=${limit}`);
      expect(res.body.data).toHaveLength(Math.min(limit, 12));
    };
    await read(1);
    const small = await app.sql.during(() => read(1));
    const large = await app.sql.during(() => read(25));
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    const stale = async (limit: number) => {
      await app.request('GET', `/api/identity/users/stale-guests?limit=${limit}`, {
        key: org.keys.read,
        headers: { 'X-Tenant-Id': many.id },
      });
    };
    app.clock.advance(200 * DAY);
    try {
      await stale(1);
      expect(await app.sql.during(() => stale(25))).toBe(await app.sql.during(() => stale(1)));
    } finally {
      app.clock.advance(-200 * DAY);
    }
  });

  it('is the GraphQL query guestUsers (type defaults to GUEST)', async () => {
    const res = await app.graphql<{ guestUsers: { items: Array<{ id: string; invitationStatus: string }> } }>(
      org.keys.read,
      `query($t: UUID!) { guestUsers(tenantId: $t, invitationStatus: NOT_APPLICABLE) { items { id invitationStatus } } }`,
      { t: tenant.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.guestUsers.items).toEqual([{ id: older.id, invitationStatus: 'NOT_APPLICABLE' }]);
  });
});
