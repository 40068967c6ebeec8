import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import type { FakeTenant } from '../graph-fake/graph-fake-state.js';
import type { DataOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';
import { um } from '../user-management/um-kit.js';
import { graphCalls, onboardAndSyncLive, startLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * Issue #29: offboarding a user of a live tenant. Graph v1.0 cannot convert a mailbox to shared (Exchange
 * Online PowerShell only): an offboarding that asks for it is refused before anything changes (501); one
 * without it runs every step through Graph (docs/decisions.md, "Live offboarding and the mailbox").
 */
let world: LiveWorld;
let tenantId: string;
let fabrikam: FakeTenant;
type OffboardingBody = DataOf<'getUserOffboarding'>;

beforeAll(async () => {
  world = await startLiveWorld({ jobs: true });
  fabrikam = world.scenario.consented;
  const ids = fabrikam.users.map((record) => record.user.id!);
  fakeDirectory(fabrikam).groups = [{ id: 'group-sales', displayName: 'Sales', memberIds: ids.slice(0, 3) }];
  ({ tenantId } = await onboardAndSyncLive(world));
});
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

async function userIds(upn: string): Promise<{ id: string; externalId: string }> {
  const { rows } = await world.app.pool.query<{ id: string; external_id: string }>(
    'select id, external_id from users where tenant_id = $1 and user_principal_name = $2',
    [tenantId, upn],
  );
  return { id: rows[0].id, externalId: rows[0].external_id };
}

const offboard = (userId: string, body: unknown) =>
  um<OffboardingBody>(world.app, 'POST', `/${userId}/offboard`, { key: world.key, tenantId, body });

describe('offboarding a user of a live tenant', () => {
  it('asking for the mailbox conversion is refused up front: 501 naming the capability, nothing written or sent', async () => {
    const { id } = await userIds('alex.wilber@fabrikam.com');
    const refused = await offboard(id, { convertMailboxToShared: true, removeLicenses: true });
    expect(refused.status).toBe(501);
    expect(refused.body.error).toMatchObject({
      code: 'NOT_SUPPORTED',
      details: { capability: 'sharedMailboxes', provider: 'microsoft365' },
    });
    // The defaults convert the mailbox too.
    expect((await offboard(id, {})).status).toBe(501);
    expect(graphCalls(world)).toEqual([]);
    const { rows } = await world.app.pool.query<{ account_status: string; offboardings: string }>(
      `select account_status, (select count(*) from user_offboardings where user_id = $1) as offboardings
         from users where id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ account_status: 'Enabled', offboardings: '0' });
  });

  it('without the conversion it completes through Graph: sign-in blocked, sessions revoked, auto-reply, groups, delete', async () => {
    const { id, externalId } = await userIds('adele.vance@fabrikam.com');
    const started = await offboard(id, {
      convertMailboxToShared: false,
      removeLicenses: false,
      autoReplyMessage: 'Adele has left the company.',
      deleteUser: true,
    });
    expect(started.status).toBe(202);
    let done: OffboardingBody | undefined;
    await eventually(
      async () => {
        const res = await um<OffboardingBody>(world.app, 'GET', `/${id}/offboard/${started.body.data.id}`, {
          key: world.key,
          tenantId,
        });
        done = res.body.data;
        expect(done.status).toBe('Completed');
      },
      { timeout: 60_000, what: 'the live offboarding to complete' },
    );
    expect(Object.fromEntries(done!.steps.map((step) => [step.name, step.status]))).toEqual({
      blockSignIn: 'Succeeded',
      revokeSessions: 'Succeeded',
      convertMailbox: 'Skipped',
      setAutoReply: 'Succeeded',
      transferFiles: 'Skipped',
      removeGroups: 'Succeeded',
      removeLicenses: 'Skipped',
      deleteUser: 'Succeeded',
    });
    const writes = graphCalls(world).filter((call) => !call.startsWith('GET '));
    expect(writes).toEqual([
      `PATCH /v1.0/users/${externalId}`,
      `POST /v1.0/users/${externalId}/revokeSignInSessions`,
      `PATCH /v1.0/users/${externalId}/mailboxSettings`,
      `DELETE /v1.0/groups/group-sales/members/${externalId}/$ref`,
      `DELETE /v1.0/users/${externalId}`,
    ]);
    const upstream = fabrikam.users.find((record) => record.user.id === externalId)!;
    expect(upstream).toMatchObject({ deleted: true, user: { accountEnabled: false } });
    expect(fakeAreaState(fabrikam).autoReplies.get(externalId)).toMatchObject({ status: 'alwaysEnabled' });
    expect(fakeDirectory(fabrikam).groups[0].memberIds).not.toContain(externalId);
  });
});
