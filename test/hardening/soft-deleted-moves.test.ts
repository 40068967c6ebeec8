import { InvitationStatus } from '../../src/users/user.enums.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { createGuest, removeGuest, resend } from '../users/guest-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, tenant } = await sharedSuite({ tenant: true })));
afterAll(() => app.stop());

const REFUSED = {
  code: 'CONFLICT',
  details: expect.objectContaining({
    from: 'soft-deleted',
    allowed: ['active', 'permanently deleted'],
  }),
};

async function softDeletedGuest(status = InvitationStatus.PENDING) {
  const guest = await createGuest(app, tenant, { invitationStatus: status });
  expect((await removeGuest(app, org.keys.admin, tenant.id, guest.id)).status).toBe(200);
  return guest;
}

describe('moves on soft-deleted users and guests answer 409 {from, to, allowed} (issue #9 item 9)', () => {
  it('DELETE and PATCH of a soft-deleted user', async () => {
    const guest = await softDeletedGuest();
    const path = `/v1/tenants/${tenant.id}/users/${guest.id}`;
    const again = await app.request<Envelope>('DELETE', path, { key: org.keys.admin });
    expect([again.status, again.body.error]).toEqual([
      409,
      expect.objectContaining({ ...REFUSED, details: expect.objectContaining({ to: 'soft-deleted' }) }),
    ]);
    expect(again.body.error).toMatchObject(REFUSED);
    const patch = await app.request<Envelope>('PATCH', path, {
      key: org.keys.write,
      body: { jobTitle: 'Ghost' },
    });
    expect(patch.status).toBe(409);
    expect(patch.body.error).toMatchObject({
      ...REFUSED,
      details: expect.objectContaining({ to: 'active' }),
    });
  });

  it('resend and remove of a soft-deleted guest', async () => {
    const guest = await softDeletedGuest();
    const resent = await resend(app, org.keys.write, tenant.id, guest.id);
    expect(resent.status).toBe(409);
    expect(resent.body).toMatchObject({ error: REFUSED });
    const removed = await removeGuest(app, org.keys.admin, tenant.id, guest.id);
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ error: REFUSED });
  });

  it('still answers 404 for an id that was never a user', async () => {
    const res = await app.request('DELETE', `/v1/tenants/${tenant.id}/users/${crypto.randomUUID()}`, {
      key: org.keys.admin,
    });
    expect(res.status).toBe(404);
  });
});
