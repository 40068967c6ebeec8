import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser, cloudUserOf } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { listDeleted, restore } from './deleted-user-kit.js';
import { createGuest, DAY, invite, listGuests, removeGuest } from './guest-kit.js';
import { eventsAbout, userRow } from './user-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

describe('DELETE /api/identity/users/:id (remove guest user)', () => {
  it('soft-deletes a guest with an Admin key: in the deleted users, restorable within 30 days', async () => {
    const invited = await invite(app, org.keys.write, tenant.id, { email: 'leaving@example.com' });
    const guest = invited.body.data;
    const res = await removeGuest(app, org.keys.admin, tenant.id, guest.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: guest.id,
      userType: 'Guest',
      email: 'leaving@example.com',
      accountStatus: 'Disabled',
      deletedAt: app.clock.now().toISOString(),
    });
    const row = await userRow(app, guest.id);
    expect(row.deleted_at).not.toBeNull();
    expect((await cloudUserOf(app, tenant, row.external_id)).deletedAt).not.toBeNull();
    expect((await eventsAbout(app, guest.id)).map((e) => e.kind)).toEqual(['guest.invited', 'user.deleted']);

    // Gone from the guests, listed in the recycle bin with 30 days to go.
    const guests = await listGuests(app, org.keys.read, tenant.id);
    expect(guests.body.data.map((g) => g.id)).not.toContain(guest.id);
    const deleted = await listDeleted(app, org.keys.read, tenant.id);
    expect(deleted.body.data).toEqual([
      expect.objectContaining({ id: guest.id, userType: 'Guest', daysRemaining: 30 }),
    ]);

    // Removing it again: a refused move on a removed guest (409), not an unknown one.
    expect((await removeGuest(app, org.keys.admin, tenant.id, guest.id)).status).toBe(409);

    app.clock.advance(10 * DAY);
    const restored = await restore(app, org.keys.write, tenant.id, guest.id);
    expect(restored.status).toBe(200);
    const back = await listGuests(app, org.keys.read, tenant.id);
    expect(back.body.data).toEqual([
      expect.objectContaining({
        id: guest.id,
        email: 'leaving@example.com',
        invitationStatus: 'Pending',
        accountStatus: 'Enabled',
      }),
    ]);
  });

  it('needs an Admin key: Read and Write keys get 403 and nothing changes', async () => {
    const guest = await createGuest(app, tenant);
    for (const key of [org.keys.read, org.keys.write]) {
      const res = await removeGuest(app, key, tenant.id, guest.id);
      expect([res.status, res.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await userRow(app, guest.id)).deleted_at).toBeNull();
  });

  it('refuses a member with 409 (members are deleted on /v1/tenants/:id/users/:userId)', async () => {
    const member = await createUser(app, tenant);
    const res = await removeGuest(app, org.keys.admin, tenant.id, member.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { userType: 'Member', allowed: ['Guest'] },
    });
    expect((await userRow(app, member.id)).deleted_at).toBeNull();
    expect(await eventsAbout(app, member.id)).toEqual([]);
  });

  it('hides another organization’s guest (404), needs X-Tenant-Id (400), and a guest of another tenant is 404', async () => {
    const guest = await createGuest(app, tenant);
    const foreign = await removeGuest(app, other.keys.admin, tenant.id, guest.id);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const theirs = await createTenant(app, other.scope);
    expect((await removeGuest(app, other.keys.admin, theirs.id, guest.id)).status).toBe(404);
    const sibling = await createTenant(app, org.scope);
    expect((await removeGuest(app, org.keys.admin, sibling.id, guest.id)).status).toBe(404);
    const missing = await app.request<{ error?: { details: { fields: unknown[] } } }>(
      'DELETE',
      `/api/identity/users/${guest.id}`,
      { key: org.keys.admin },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    expect((await userRow(app, guest.id)).deleted_at).toBeNull();
  });

  it('is the GraphQL mutation removeGuest (Admin)', async () => {
    const guest = await createGuest(app, tenant);
    const mutation = `mutation($t: UUID!, $id: UUID!) { removeGuest(tenantId: $t, id: $id) { id deletedAt } }`;
    const denied = await app.graphql(org.keys.write, mutation, { t: tenant.id, id: guest.id });
    expect(denied.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const res = await app.graphql<{ removeGuest: { id: string; deletedAt: string } }>(
      org.keys.admin,
      mutation,
      { t: tenant.id, id: guest.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.removeGuest).toEqual({ id: guest.id, deletedAt: app.clock.now().toISOString() });
  });
});
