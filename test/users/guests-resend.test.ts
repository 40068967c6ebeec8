import { onServer } from '../helpers/on-server.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { InvitationStatus } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { createGuest, DAY, invite, listGuests, mailsTo, resend, simulatedCloud } from './guest-kit.js';
import { eventsAbout, userRow } from './user-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

/** A sync of the tenant, run here as the job would run it. */
function sync(t: Tenant) {
  return onServer(app, 'syncTenant', org.scope, t.id);
}

async function invited(email: string, sendInvitation = true) {
  const res = await invite(app, org.keys.write, tenant.id, { email, sendInvitation });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('POST /api/identity/users/:id/resend-invite', () => {
  it('mails a Pending invitation again, with the same message, and emits guest.invited (resent)', async () => {
    const res0 = await invite(app, org.keys.write, tenant.id, {
      email: 'again@example.com',
      personalMessage: 'Hello again',
    });
    const guest = res0.body.data;
    app.clock.advance(2 * DAY);
    const res = await resend(app, org.keys.write, tenant.id, guest.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: guest.id,
      invitationStatus: 'Pending',
      invitedAt: guest.invitedAt,
      invitationSentAt: app.clock.now().toISOString(),
    });
    const { external_id } = await userRow(app, guest.id);
    const mails = await mailsTo(app, tenant, external_id);
    expect(mails.map((m) => [m.sentAt, m.personalMessage])).toEqual([
      [guest.invitedAt, 'Hello again'],
      [app.clock.now().toISOString(), 'Hello again'],
    ]);
    const events = await eventsAbout(app, guest.id);
    expect(events.map((e) => [e.kind, e.payload.details.resent, e.payload.details.sent])).toEqual([
      ['guest.invited', false, true],
      ['guest.invited', true, true],
    ]);
  });

  it('sends the first mail of a guest created silently', async () => {
    const guest = await invited('quiet@example.com', false);
    const { external_id } = await userRow(app, guest.id);
    expect(await mailsTo(app, tenant, external_id)).toHaveLength(0);
    const res = await resend(app, org.keys.write, tenant.id, guest.id);
    expect(res.body.data.invitationSentAt).toBe(app.clock.now().toISOString());
    expect(await mailsTo(app, tenant, external_id)).toHaveLength(1);
  });

  it('once the guest redeemed it (upstream, then sync): Accepted, and a resend is 409 {from, to, allowed}', async () => {
    const guest = await invited('redeemer@example.com');
    const { external_id } = await userRow(app, guest.id);
    app.clock.advance(DAY);
    expect(await simulatedCloud(app).acceptInvitation(tenant.externalId, external_id)).toBe(true);

    // Not synced yet: our row says Pending, the cloud refuses to send; nothing is mailed or written.
    const early = await resend(app, org.keys.write, tenant.id, guest.id);
    expect(early.status).toBe(409);
    expect(early.body.error?.details).toMatchObject({ from: 'Accepted', allowed: ['Removal'] });
    expect(await mailsTo(app, tenant, external_id)).toHaveLength(1);

    const summary = await sync(tenant);
    expect(summary.usersUpdated).toBeGreaterThanOrEqual(1);
    const listed = await listGuests(app, org.keys.read, tenant.id, '?type=guest&invitationStatus=Accepted');
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: guest.id,
        invitationStatus: 'Accepted',
        invitationAcceptedAt: app.clock.now().toISOString(),
      }),
    ]);
    const res = await resend(app, org.keys.write, tenant.id, guest.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { from: 'Accepted', to: 'Invitation Sent', allowed: ['Removal'] },
    });
    expect(await eventsAbout(app, guest.id)).toHaveLength(1); // only the invitation
    // A second sync changes nothing: the guest fields match upstream.
    expect((await sync(tenant)).usersUpdated).toBe(0);
  });

  it('refuses a guest that came in without invitation (N/A) and a member with 409', async () => {
    const na = await createGuest(app, tenant, { invitationStatus: InvitationStatus.NOT_APPLICABLE });
    const res = await resend(app, org.keys.write, tenant.id, na.id);
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toMatchObject({ from: 'N/A', to: 'Invitation Sent' });
    const member = await createUser(app, tenant);
    const refused = await resend(app, org.keys.write, tenant.id, member.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.details).toMatchObject({ userType: 'Member', allowed: ['Guest'] });
  });

  it('needs write:users, and hides other organizations and unknown ids (404)', async () => {
    const guest = await invited('perm-resend@example.com');
    expect((await resend(app, org.keys.read, tenant.id, guest.id)).status).toBe(403);
    expect((await resend(app, other.keys.admin, tenant.id, guest.id)).status).toBe(404);
    const elsewhere = await createTenant(app, other.scope);
    expect((await resend(app, other.keys.admin, elsewhere.id, guest.id)).status).toBe(404);
    expect(
      (await resend(app, org.keys.write, tenant.id, '00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404);
  });
});
