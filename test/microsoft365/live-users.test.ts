import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { invite, resend } from '../users/guest-kit.js';
import { purge, restore } from '../users/deleted-user-kit.js';
import { countUsers, userRow, type Envelope, type UserBody } from '../users/user-test-kit.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

let world: LiveWorld<SharedApp>;
let tenantId: string;
let fabrikam: FakeTenant;
beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  fabrikam = world.scenario.consented;
  ({ tenantId } = await onboardAndSyncLive(world));
});
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

const PASSWORD = 'Correct-Horse-Battery-9';
const upstream = (id: string) => fabrikam.users.find((record) => record.user.id === id);
const userPath = (id: string) => `/v1/tenants/${tenantId}/users/${id}`;

async function userByUpn(upn: string): Promise<UserBody> {
  const res = await world.app.request<Envelope<UserBody[]>>(
    'GET',
    `/v1/tenants/${tenantId}/users?limit=100`,
    { key: world.key },
  );
  return res.body.data.find((user) => user.userPrincipalName === upn)!;
}

async function create(upn: string, extra: Record<string, unknown> = {}) {
  return world.app.request<Envelope<UserBody>>('POST', `/v1/tenants/${tenantId}/users`, {
    key: world.key,
    body: {
      firstName: 'Nestor',
      lastName: 'Wilke',
      userPrincipalName: upn,
      password: PASSWORD,
      usageLocation: 'US',
      ...extra,
    },
  });
}

describe('users of a live tenant, through Graph', () => {
  it('creates with POST /users (passwordProfile, mailNickname, usageLocation) and sets the manager by $ref', async () => {
    const manager = await userByUpn('adele.vance@fabrikam.com');
    const res = await create('nestor.wilke@fabrikam.com', { jobTitle: 'Director', managerId: manager.id });
    expect(res.status).toBe(201);
    const row = await userRow(world.app, res.body.data.id);
    const managerRow = await userRow(world.app, manager.id);
    expect(graphCalls(world)).toEqual([
      'POST /v1.0/users',
      `PUT /v1.0/users/${row.external_id}/manager/$ref`,
    ]);
    expect(upstream(row.external_id)!.user).toMatchObject({
      userPrincipalName: 'nestor.wilke@fabrikam.com',
      mailNickname: 'nestor.wilke',
      displayName: 'Nestor Wilke',
      givenName: 'Nestor',
      surname: 'Wilke',
      jobTitle: 'Director',
      usageLocation: 'US',
      accountEnabled: true,
    });
    expect(fakeDirectory(fabrikam).passwords.get(row.external_id)).toBe(PASSWORD);
    expect(fakeDirectory(fabrikam).managers.get(row.external_id)).toBe(managerRow.external_id);
  });

  it('updates with PATCH /users/{id} and clears the manager with DELETE …/manager/$ref', async () => {
    const user = await userByUpn('nestor.wilke@fabrikam.com');
    const res = await world.app.request<Envelope<UserBody>>('PATCH', userPath(user.id), {
      key: world.key,
      body: { department: 'Research', accountStatus: 'Disabled', managerId: null },
    });
    expect(res.status).toBe(200);
    const row = await userRow(world.app, user.id);
    expect(graphCalls(world)).toEqual([
      `PATCH /v1.0/users/${row.external_id}`,
      `DELETE /v1.0/users/${row.external_id}/manager/$ref`,
    ]);
    expect(upstream(row.external_id)!.user).toMatchObject({ department: 'Research', accountEnabled: false });
    expect(fakeDirectory(fabrikam).managers.has(row.external_id)).toBe(false);
  });

  it('answers 501 NOT_SUPPORTED for per-user MFA, which Graph v1.0 cannot set, and changes nothing', async () => {
    const user = await userByUpn('nestor.wilke@fabrikam.com');
    const res = await world.app.request<Envelope<UserBody>>('PATCH', userPath(user.id), {
      key: world.key,
      body: { mfaStatus: 'Enforced', jobTitle: 'Not applied' },
    });
    expect(res.status).toBe(501);
    expect(res.body.error).toMatchObject({
      code: 'NOT_SUPPORTED',
      details: { capability: 'mfaStatus', provider: 'microsoft365' },
    });
    expect(graphCalls(world)).toEqual([]);
    expect((await userRow(world.app, user.id)).job_title).toBe('Director');
  });

  it('soft-deletes (DELETE /users/{id}), restores from the recycle bin and purges it', async () => {
    const user = await userByUpn('nestor.wilke@fabrikam.com');
    const { external_id: id } = await userRow(world.app, user.id);
    expect((await world.app.request('DELETE', userPath(user.id), { key: world.key })).status).toBe(200);
    expect(graphCalls(world)).toEqual([`DELETE /v1.0/users/${id}`]);
    expect(upstream(id)!.deleted).toBe(true);

    world.scenario.fake.clearRequests();
    const restored = await restore(world.app, world.key, tenantId, user.id);
    expect(restored.status).toBe(200);
    const calls = graphCalls(world);
    expect(calls.slice(0, 2)).toEqual([
      `POST /v1.0/directory/deletedItems/${id}/restore`,
      `PATCH /v1.0/users/${id}`,
    ]);
    expect(calls[2]).toMatch(new RegExp(`^GET /v1\\.0/users/${id}\\?\\$select=`));
    expect(upstream(id)!.deleted).toBe(false);

    expect((await world.app.request('DELETE', userPath(user.id), { key: world.key })).status).toBe(200);
    world.scenario.fake.clearRequests();
    const purged = await purge(world.app, world.key, tenantId, user.id);
    expect(purged.status).toBe(200);
    expect(graphCalls(world)).toEqual([`DELETE /v1.0/directory/deletedItems/${id}`]);
    expect(upstream(id)).toBeUndefined();
  });

  it('invites a guest with POST /invitations (no mail when asked) and resends with a new invitation', async () => {
    const res = await invite(world.app, world.key, tenantId, {
      email: 'jane.doe@partner.example.org',
      displayName: 'Jane Doe',
      sendInvitation: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      userPrincipalName: 'jane.doe_partner.example.org#EXT#@fabrikam.onmicrosoft.com',
      userType: 'Guest',
      invitationStatus: 'Pending',
      invitationSentAt: null,
    });
    const { external_id: id } = await userRow(world.app, res.body.data.id);
    expect(graphCalls(world).slice(0, 2)).toEqual(['POST /v1.0/invitations', `PATCH /v1.0/users/${id}`]);
    expect(fakeDirectory(fabrikam).invitations.at(-1)).toMatchObject({
      invitedUserEmailAddress: 'jane.doe@partner.example.org',
      sendInvitationMessage: false,
      inviteRedirectUrl: 'https://myapps.microsoft.com',
    });

    world.scenario.fake.clearRequests();
    const again = await resend(world.app, world.key, tenantId, res.body.data.id);
    expect(again.status).toBe(200);
    expect(graphCalls(world)).toEqual([
      expect.stringMatching(new RegExp(`^GET /v1\\.0/users/${id}\\?\\$select=`)),
      'POST /v1.0/invitations',
    ]);
    expect(fakeDirectory(fabrikam).invitations.at(-1)).toMatchObject({
      sendInvitationMessage: true,
      invitedUser: { id },
    });
  });

  it('a throttled Graph answers 503 with Retry-After and nothing is written', async () => {
    const before = await countUsers(world.app, tenantId);
    // Longer than the transport waits inside a request: not retried, answered at once.
    world.scenario.fake.inject({ url: '/v1.0/users', status: 429, retryAfterSeconds: 120, times: 1 });
    const res = await create('throttled.user@fabrikam.com');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await countUsers(world.app, tenantId)).toBe(before);
    expect(
      fabrikam.users.some((record) => record.user.userPrincipalName === 'throttled.user@fabrikam.com'),
    ).toBe(false);
  });

  it("a change Graph refuses is 409 CONFLICT with Graph's reason, and nothing is stored", async () => {
    // A user Graph has and our copy does not (made upstream since the last sync).
    world.scenario.fake.state.putUser(fabrikam, fakeUser(fabrikam, 'Patti Fernandez'));
    const before = await countUsers(world.app, tenantId);
    world.scenario.fake.clearRequests();
    const res = await create('patti.fernandez@fabrikam.com');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Another object with the same value for property userPrincipalName'),
      details: { reason: 'CLOUD_REFUSED', upstream: 'cloud' },
    });
    expect(graphCalls(world)).toEqual(['POST /v1.0/users']);
    expect(await countUsers(world.app, tenantId)).toBe(before);
  });
});
