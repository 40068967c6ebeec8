import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import type { FakeTenant } from '../graph-fake/graph-fake-state.js';
import type { DataOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';
import { retryNow } from '../helpers/job-queue.js';
import { um } from '../user-management/um-kit.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #29: offboarding a user of a live tenant. Graph v1.0 cannot convert a mailbox to shared (Exchange
 * Online PowerShell only): an offboarding that asks for it is refused before anything changes (501); one
 * without it runs every step through Graph (docs/decisions.md, "Live offboarding and the mailbox").
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
let fabrikam: FakeTenant;
type OffboardingBody = DataOf<'getUserOffboarding'>;

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
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

describe('a step Graph throttles (429 with Retry-After)', () => {
  it('waits visibly (Waiting, retryAt) and the job retries it after the Retry-After; the steps done are not repeated', async () => {
    const { id, externalId } = await userIds('diego.siciliani@fabrikam.com');
    const mailboxSettings = `/v1.0/users/${externalId}/mailboxSettings`;
    // Longer than the client waits inside a call (maxRetryWaitSeconds 2): the step fails Throttled, the job waits.
    world.scenario.fake.inject({ url: mailboxSettings, method: 'PATCH', status: 429, retryAfterSeconds: 4 });
    const started = await offboard(id, {
      convertMailboxToShared: false,
      removeLicenses: false,
      removeFromGroups: false,
      autoReplyMessage: 'Diego has left the company.',
    });
    expect(started.status).toBe(202);
    const read = async () =>
      (
        await um<OffboardingBody>(world.app, 'GET', `/${id}/offboard/${started.body.data.id}`, {
          key: world.key,
          tenantId,
        })
      ).body.data;
    const stepOf = (body: OffboardingBody, name: string) => body.steps.find((step) => step.name === name)!;

    const waiting = await eventually(
      async () => {
        const body = await read();
        expect(stepOf(body, 'setAutoReply').status).toBe('Waiting');
        return body;
      },
      { timeout: 30_000, interval: 100, what: 'the throttled step to wait' },
    );
    expect(waiting.status).toBe('Running');
    const wait = stepOf(waiting, 'setAutoReply');
    expect(wait).toMatchObject({ attempts: 1, error: expect.stringMatching(/throttling/) });
    // Graph's Retry-After (4 s) is longer than the queue's first backoff (e ≈ 2.7 s): the retry comes then.
    expect(Date.parse(wait.retryAt!) - Date.parse(wait.finishedAt!)).toBe(4_000);
    // The queue holds the job's retry for it; made due now rather than sat out (the retry is the claim here).
    const retry = await retryNow(world.app.pool, `user-offboarding:${started.body.data.id}`);
    expect(retry.attempts).toBe(1);
    expect(retry.secondsAhead).toBeGreaterThan(1);

    // Returns the final state, so a Failed offboarding fails the test at once.
    const done = await eventually(
      async () => {
        const body = await read();
        expect(body.status).not.toBe('Running');
        return body;
      },
      { timeout: 60_000, what: 'the throttled offboarding to finish' },
    );
    expect(done).toMatchObject({ status: 'Completed', failureReason: null });
    expect(
      done.steps.map(({ name, status, attempts, retryAt }) => [name, status, attempts, retryAt]),
    ).toEqual([
      ['blockSignIn', 'Succeeded', 1, null],
      ['revokeSessions', 'Succeeded', 1, null],
      ['convertMailbox', 'Skipped', 0, null],
      ['setAutoReply', 'Succeeded', 2, null],
      ['transferFiles', 'Skipped', 0, null],
      ['removeGroups', 'Skipped', 0, null],
      ['removeLicenses', 'Skipped', 0, null],
      ['deleteUser', 'Skipped', 0, null],
    ]);
    // Each write once, the throttled one twice: answered 429, then done.
    const writes = world.scenario.fake.requests.filter((request) => request.method !== 'GET');
    expect(writes.map((request) => `${request.status} ${request.method} ${request.url}`)).toEqual([
      `204 PATCH /v1.0/users/${externalId}`,
      `200 POST /v1.0/users/${externalId}/revokeSignInSessions`,
      `429 PATCH ${mailboxSettings}`,
      `200 PATCH ${mailboxSettings}`,
    ]);
    expect(fakeAreaState(fabrikam).autoReplies.get(externalId)).toMatchObject({ status: 'alwaysEnabled' });
  }, 90_000);
});
