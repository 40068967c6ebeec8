import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { identity, scalar } from './deleted-user-kit.js';
import { createGuest, invite, mailsTo, type GuestBody } from './guest-kit.js';
import { cloudObjects, eventsAbout, userRow } from './user-test-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

/** What an invalid invitation must not leave behind: rows, upstream users, mails, events. */
async function footprint(t: Tenant) {
  return {
    rows: await scalar(app, 'select count(*) as n from users where tenant_id = $1', [t.id]),
    cloudUsers: (await cloudObjects(app, t.externalId, 'user')).length,
    mails: (await cloudObjects(app, t.externalId, 'invitation_mail')).length,
    events: await scalar(app, `select count(*) as n from domain_events where kind = 'guest.invited'`, []),
  };
}

describe('POST /api/identity/users/invite', () => {
  it('invites a guest: 201, Pending, mailed, stored, and guest.invited with the invitation', async () => {
    const res = await invite(app, org.keys.write, tenant.id, {
      email: '  Jane.Doe@Partner.Example.org ',
      displayName: 'Jane Doe (Partner)',
      personalMessage: 'Welcome to the project space',
      redirectUrl: 'https://apps.example.org/start',
    });
    expect(res.status).toBe(201);
    const now = app.clock.now().toISOString();
    expect(res.body.data).toEqual({
      id: expect.any(String),
      tenantId: tenant.id,
      displayName: 'Jane Doe (Partner)',
      email: 'jane.doe@partner.example.org',
      userPrincipalName: `jane.doe_partner.example.org#EXT#@${tenant.domain}`,
      userType: 'Guest',
      source: 'Invited user',
      invitationStatus: 'Pending',
      accountStatus: 'Enabled',
      createdAt: now,
      lastSignInAt: null,
      invitedBy: apiKeyActor(),
      invitedAt: now,
      invitationSentAt: now,
      invitationAcceptedAt: null,
    });
    const guest = res.body.data;
    const row = await userRow(app, guest.id);
    expect(row).toMatchObject({ user_principal_name: guest.userPrincipalName, deleted_at: null });

    const mails = await mailsTo(app, tenant, row.external_id);
    expect(mails).toEqual([
      expect.objectContaining({
        to: 'jane.doe@partner.example.org',
        personalMessage: 'Welcome to the project space',
        redirectUrl: 'https://apps.example.org/start',
        sentAt: now,
      }),
    ]);
    const [upstream] = (await cloudObjects(app, tenant.externalId, 'user')).filter(
      (u) => u.externalId === row.external_id,
    );
    expect(upstream).toMatchObject({ userType: 'Guest', mail: 'jane.doe@partner.example.org' });

    const events = await eventsAbout(app, guest.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'guest.invited',
      payload: {
        event: 'guest.invited',
        tenant: { id: tenant.id, name: tenant.name, domain: tenant.domain },
        details: {
          userId: guest.id,
          email: 'jane.doe@partner.example.org',
          displayName: 'Jane Doe (Partner)',
          // Webhook payloads keep the stored principal string (docs/decisions.md).
          invitedBy: `api_key:${guest.invitedBy!.id}`,
          sent: true,
          resent: false,
        },
        actionUrl: expect.stringContaining(`/tenants/${tenant.id}/users/${guest.id}`),
      },
    });
  });

  it('with sendInvitation false creates the guest Pending and mails nothing', async () => {
    const res = await invite(app, org.keys.write, tenant.id, {
      email: 'silent.partner@example.net',
      sendInvitation: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      displayName: 'Silent Partner', // made from the address
      invitationStatus: 'Pending',
      invitationSentAt: null,
      invitedAt: app.clock.now().toISOString(),
    });
    const row = await userRow(app, res.body.data.id);
    expect(await mailsTo(app, tenant, row.external_id)).toEqual([]);
    const [event] = await eventsAbout(app, res.body.data.id);
    expect(event.payload.details).toMatchObject({ sent: false, email: 'silent.partner@example.net' });
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'email'],
      [{ email: 'not-an-address' }, 'email'],
      [{ email: 'a b@example.com' }, 'email'],
      [{ email: `${'x'.repeat(250)}@example.com` }, 'email'],
      [{ email: 42 }, 'email'],
      [{ email: 'ok@example.com', personalMessage: 'x'.repeat(1001) }, 'personalMessage'],
      [{ email: 'ok@example.com', redirectUrl: 'ftp://example.com/' }, 'redirectUrl'],
      [{ email: 'ok@example.com', redirectUrl: 'javascript:alert(1)' }, 'redirectUrl'],
      [{ email: 'ok@example.com', sendInvitation: 'yes' }, 'sendInvitation'],
      [{ email: 'ok@example.com', displayName: '   ' }, 'displayName'],
      [{ email: 'ok@example.com', role: 'admin' }, 'role'],
      [{ email: `someone@${tenant.domain}` }, 'email'], // the tenant's own domain: a member, not a guest
    ];
    const before = await footprint(tenant);
    for (const [body, field] of cases) {
      const res = await invite(app, org.keys.write, tenant.id, body);
      expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
        body,
        status: 400,
        code: 'INVALID_REQUEST',
      });
      const fields = (res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field);
      expect({ body, fields: [...new Set(fields)] }).toEqual({ body, fields: [field] });
    }
    expect(await footprint(tenant)).toEqual(before);
  });

  it('accepts a personal message of exactly 1000 characters', async () => {
    const res = await invite(app, org.keys.write, tenant.id, {
      email: 'long.message@example.com',
      personalMessage: 'm'.repeat(1000),
      sendInvitation: false,
    });
    expect(res.status).toBe(201);
  });

  it('answers 409 when the address is already a guest of the tenant (any case), writing nothing', async () => {
    const existing = await createGuest(app, tenant, { email: 'taken@partner.example.org' });
    const before = await footprint(tenant);
    const res = await invite(app, org.keys.write, tenant.id, { email: 'TAKEN@partner.example.org' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      details: {
        fields: [{ field: 'email', problem: expect.any(String) }],
        existingUserId: existing.id,
        userType: 'Guest',
      },
    });
    expect(await footprint(tenant)).toEqual(before);
  });

  it('answers 409 for an address that is a member’s sign-in name on another domain', async () => {
    const t = await createTenant(app, org.scope);
    const member = await createUser(app, t, { userPrincipalName: `moved@elsewhere.example.com` });
    const res = await invite(app, org.keys.write, t.id, { email: 'Moved@Elsewhere.example.com' });
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toMatchObject({ existingUserId: member.id, userType: 'Member' });
  });

  it('lets two tenants invite the same address, and the same address again once removed', async () => {
    const t = await createTenant(app, org.scope);
    const first = await invite(app, org.keys.write, t.id, { email: 'shared@example.com' });
    const again = await invite(app, org.keys.write, tenant.id, { email: 'shared@example.com' });
    expect([first.status, again.status]).toEqual([201, 201]);
    const removed = await identity(app, 'DELETE', `/users/${first.body.data.id}`, {
      key: org.keys.admin,
      tenantId: t.id,
    });
    expect(removed.status).toBe(200);
    expect((await invite(app, org.keys.write, t.id, { email: 'shared@example.com' })).status).toBe(201);
  });

  it('settles two invitations of one address at once: one 201, one 409, one row', async () => {
    const t = await createTenant(app, org.scope);
    const results = await Promise.all(
      [1, 2].map(() => invite(app, org.keys.write, t.id, { email: 'race@example.com' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(
      await scalar(app, `select count(*) as n from users where tenant_id = $1 and email = $2`, [
        t.id,
        'race@example.com',
      ]),
    ).toBe(1);
    // The loser's upstream guest was undone: one guest upstream.
    const upstream = (await cloudObjects(app, t.externalId, 'user')).filter(
      (u) => u.mail === 'race@example.com',
    );
    expect(upstream).toHaveLength(1);
  });

  it('needs write:users (Read key 403), X-Tenant-Id (400) and hides other organizations (404)', async () => {
    const body = { email: 'perm@example.com' };
    const read = await invite(app, org.keys.read, tenant.id, body);
    expect([read.status, read.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await identity<GuestBody>(app, 'POST', '/users/invite', { key: org.keys.write, body });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await invite(app, other.keys.admin, tenant.id, body);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('is the GraphQL mutation inviteGuest, with UPPER_SNAKE enums', async () => {
    const res = await app.graphql<{ inviteGuest: Record<string, unknown> }>(
      org.keys.write,
      `mutation($t: UUID!) {
        inviteGuest(tenantId: $t, input: { email: "gql@example.com", sendInvitation: false }) {
          email source invitationStatus userType invitationSentAt
        }
      }`,
      { t: tenant.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.inviteGuest).toEqual({
      email: 'gql@example.com',
      source: 'INVITED_USER',
      invitationStatus: 'PENDING',
      userType: 'GUEST',
      invitationSentAt: null,
    });
  });
});
