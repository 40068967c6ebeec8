import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { InvitationStatus } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { identity } from './deleted-user-kit.js';
import { createGuest, DAY, staleGuests } from './guest-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let start: Date;
let signedIn: User;
let acceptedNever: User;
let pending: User;
let recent: User;
let noInvitation: User;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  start = app.clock.now();
  const at = (days: number) => new Date(start.getTime() + days * DAY);
  // Everyone created on day 0; what differs is what happened since.
  signedIn = await createGuest(app, tenant, { lastSignInAt: at(10) });
  acceptedNever = await createGuest(app, tenant, { invitationAcceptedAt: at(20) });
  pending = await createGuest(app, tenant, {
    invitationStatus: InvitationStatus.PENDING,
    invitationSentAt: at(30), // resent on day 30
  });
  recent = await createGuest(app, tenant, { lastSignInAt: at(200) });
  noInvitation = await createGuest(app, tenant, {
    invitationStatus: InvitationStatus.NOT_APPLICABLE,
    invitedAt: null,
    invitationSentAt: null,
  });
  // Members never appear, however long since they signed in; nor removed guests.
  await createUser(app, tenant);
  const removed = await createGuest(app, tenant, { lastSignInAt: at(1) });
  await identity(app, 'DELETE', `/users/${removed.id}`, { key: org.keys.admin, tenantId: tenant.id });
});
afterAll(() => app.stop());

async function staleAt(days: number): Promise<Record<string, [string, number]>> {
  app.clock.set(new Date(start.getTime() + days * DAY));
  const res = await staleGuests(app, org.keys.read, tenant.id);
  expect(res.status).toBe(200);
  expect(res.body.meta?.total).toBe(res.body.data.length);
  return Object.fromEntries(res.body.data.map((g) => [g.id, [g.reason, g.daysInactive]]));
}

describe('GET /api/identity/users/stale-guests', () => {
  it('applies each criterion at 90 days by the clock, with its reason', async () => {
    expect(await staleAt(89)).toEqual({});
    // Day 90: the guest added without invitation (created day 0) has never signed in for 90 days.
    expect(await staleAt(90)).toEqual({ [noInvitation.id]: ['Accepted but never signed in', 90] });
    // Day 100: last sign-in on day 10.
    expect(await staleAt(100)).toMatchObject({
      [signedIn.id]: ['No sign-in for 90 days', 90],
      [noInvitation.id]: ['Accepted but never signed in', 100],
    });
    expect(Object.keys(await staleAt(109.99))).toHaveLength(2);
    // Day 110: accepted on day 20, never signed in.
    expect(await staleAt(110)).toMatchObject({ [acceptedNever.id]: ['Accepted but never signed in', 90] });
    // Day 120: the pending invitation, last sent on day 30, not redeemed.
    expect(await staleAt(120)).toEqual({
      [signedIn.id]: ['No sign-in for 90 days', 110],
      [acceptedNever.id]: ['Accepted but never signed in', 100],
      [pending.id]: ['Pending invitation not redeemed', 90],
      [noInvitation.id]: ['Accepted but never signed in', 120],
    });
    // Day 290: the recent one too (last sign-in day 200).
    expect((await staleAt(290))[recent.id]).toEqual(['No sign-in for 90 days', 90]);
  });

  it('lists longest inactive first, with the guest fields, and pages', async () => {
    app.clock.set(new Date(start.getTime() + 120 * DAY));
    const res = await staleGuests(app, org.keys.read, tenant.id, '?limit=2');
    // The simulated cloud gives sign-in data: every guest is judged (test/microsoft365/live-stale-guests.test.ts: without).
    expect(res.body.meta).toEqual({
      page: 1,
      limit: 2,
      total: 4,
      signInDataAvailable: true,
      signInDataUnavailableReason: null,
    });
    expect(res.body.data.map((g) => g.id)).toEqual([noInvitation.id, signedIn.id]);
    expect(res.body.data[1]).toMatchObject({
      userType: 'Guest',
      source: 'B2B collaboration',
      invitationStatus: 'Accepted',
      lastSignInAt: new Date(start.getTime() + 10 * DAY).toISOString(),
      inactiveSince: new Date(start.getTime() + 10 * DAY).toISOString(),
    });
    const second = await staleGuests(app, org.keys.read, tenant.id, '?limit=2&page=2');
    expect(second.body.data.map((g) => g.id)).toEqual([acceptedNever.id, pending.id]);
    const past = await staleGuests(app, org.keys.read, tenant.id, '?limit=2&page=5');
    expect(past.body).toMatchObject({ data: [], meta: { page: 5, total: 4 } });
  });

  it('needs X-Tenant-Id (400) and hides other organizations (404)', async () => {
    const missing = await identity(app, 'GET', '/users/stale-guests', { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await staleGuests(app, other.keys.admin, tenant.id);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('is the GraphQL query staleGuests', async () => {
    app.clock.set(new Date(start.getTime() + 120 * DAY));
    const res = await app.graphql<{ staleGuests: { items: Array<{ reason: string }> } }>(
      org.keys.read,
      `query($t: UUID!) { staleGuests(tenantId: $t) { items { reason } pageInfo { total } } }`,
      { t: tenant.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(new Set(res.body.data?.staleGuests.items.map((i) => i.reason))).toEqual(
      new Set(['NO_SIGN_IN_FOR_90_DAYS', 'ACCEPTED_NEVER_SIGNED_IN', 'PENDING_INVITATION_NOT_REDEEMED']),
    );
  });
});
