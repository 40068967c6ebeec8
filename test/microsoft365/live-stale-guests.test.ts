import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { staleGuests } from '../users/guest-kit.js';
import { onboardAndSyncLive, sharedLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #29 item 5 "Guests": stale guests come from `signInActivity`, which Graph refuses to a tenant without
 * Microsoft Entra ID P1 (403 Authentication_RequestFromNonPremiumTenantOrB2CTenant). The answer then says
 * sign-in data is unavailable and lists only what needs none (unredeemed invitations), never a guess.
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
let fabrikam: FakeTenant;
const LONG_AGO = '2026-01-05T09:00:00Z';

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  fabrikam = world.scenario.consented;
  const guest = (name: string, state: 'Accepted' | 'PendingAcceptance') =>
    world.scenario.fake.state.putUser(
      fabrikam,
      fakeUser(fabrikam, name, {
        userType: 'Guest',
        userPrincipalName: `${name.toLowerCase().replace(' ', '.')}_example.org#EXT#@fabrikam.onmicrosoft.com`,
        mail: `${name.toLowerCase().replace(' ', '.')}@example.org`,
        creationType: 'Invitation',
        createdDateTime: LONG_AGO,
        externalUserState: state,
        externalUserStateChangeDateTime: LONG_AGO,
      }),
    );
  guest('Accepted Guest', 'Accepted');
  guest('Pending Guest', 'PendingAcceptance');
  ({ tenantId } = await onboardAndSyncLive(world));
});
afterAll(() => stopLiveWorld(world));

const STALE_QUERY = `query Stale($tenantId: UUID!) {
  staleGuests(tenantId: $tenantId) {
    items { displayName reason }
    signInDataAvailable
    signInDataUnavailableReason
  }
}`;

interface StaleAnswer {
  staleGuests: {
    items: Array<{ displayName: string; reason: string }>;
    signInDataAvailable: boolean;
    signInDataUnavailableReason: string | null;
  };
}

describe('stale guests of a live tenant', () => {
  it('with Entra ID P1 judges every guest by its sign-ins, and says sign-in data was available', async () => {
    const res = await staleGuests(world.app, world.key, tenantId);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ signInDataAvailable: true, signInDataUnavailableReason: null });
    // Both inactive since the same instant: ordered by id, not name.
    expect(res.body.data.map((guest) => [guest.displayName, guest.reason]).sort()).toEqual([
      ['Accepted Guest', 'Accepted but never signed in'],
      ['Pending Guest', 'Pending invitation not redeemed'],
    ]);
  });

  it('without it the sync goes on, and the answer says sign-in data is unavailable and lists only unredeemed invitations', async () => {
    fakeDirectory(fabrikam).premium = false;
    world.scenario.fake.clearRequests();
    const sync = await syncAndWait(world.app, world.org, tenantId, 60_000, world.key);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    const refused = world.scenario.fake.requests.find(
      (request) => request.url === '/v1.0/users?$select=id,signInActivity&$top=999',
    );
    expect(refused?.status).toBe(403);

    const res = await staleGuests(world.app, world.key, tenantId);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({
      signInDataAvailable: false,
      signInDataUnavailableReason: expect.stringContaining('Microsoft Entra ID P1 or P2'),
    });
    expect(res.body.data.map((guest) => guest.displayName)).toEqual(['Pending Guest']);

    const graphql = await world.app.graphql<StaleAnswer>(world.key, STALE_QUERY, { tenantId });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data!.staleGuests).toMatchObject({
      items: [{ displayName: 'Pending Guest', reason: 'PENDING_INVITATION_NOT_REDEEMED' }],
      signInDataAvailable: false,
      signInDataUnavailableReason: expect.stringContaining(
        'Authentication_RequestFromNonPremiumTenantOrB2CTenant',
      ),
    });
  });

  it('once the tenant has P1 again, the next sync brings sign-in data back', async () => {
    fakeDirectory(fabrikam).premium = true;
    await syncAndWait(world.app, world.org, tenantId, 60_000, world.key);
    const res = await staleGuests(world.app, world.key, tenantId);
    expect(res.body.meta).toMatchObject({ signInDataAvailable: true });
    expect(res.body.data).toHaveLength(2);
  });
});
