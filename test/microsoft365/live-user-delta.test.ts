import { fakeDirectory, setFakeManager } from '../graph-fake/graph-fake-directory.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { retryTaskNow } from '../helpers/job-queue.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #29 item 5 "Users": the first sync reads every user (`/users/delta` to its last page, plus the
 * recycle bin) and stores the deltaLink; later syncs start from it and apply only the changes; an expired
 * link (410) falls back to a full round. The cursor is written in the sync's transaction with the rows.
 */
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

const state = () => world.scenario.fake.state;
const idOf = (upn: string) =>
  fabrikam.users.find((record) => record.user.userPrincipalName === upn)!.user.id!;

async function storedCursor(): Promise<string | null> {
  const { rows } = await world.app.pool.query<{ delta_cursor: string | null }>(
    'select delta_cursor from user_sync_states where tenant_id = $1',
    [tenantId],
  );
  return rows[0]?.delta_cursor ?? null;
}

interface Row {
  external_id: string;
  user_principal_name: string;
  job_title: string | null;
  manager_external_id: string | null;
  directory_roles: string[];
  deleted_at: Date | null;
  updated_at: Date;
}

async function rows(): Promise<Map<string, Row>> {
  const { rows: found } = await world.app.pool.query<Row>(
    `select u.external_id, u.user_principal_name, u.job_title, m.external_id as manager_external_id,
            u.directory_roles, u.deleted_at, u.updated_at
       from users u left join users m on m.id = u.manager_id where u.tenant_id = $1`,
    [tenantId],
  );
  return new Map(found.map((row) => [row.user_principal_name, row]));
}

async function sync(): Promise<SyncBody> {
  const done = await syncAndWait(world.app, world.org, tenantId, 60_000, world.key);
  expect(done).toMatchObject({ status: 'Completed', error: null });
  return done;
}

/** The Graph URL of a stored link as the fake records it (path and decoded query). */
const recorded = (link: string) => {
  const url = new URL(link);
  return `GET ${decodeURIComponent(url.pathname + url.search)}`;
};

describe('users of a live tenant from the stored deltaLink', () => {
  it('stores the deltaLink of the first, full round', async () => {
    const cursor = await storedCursor();
    expect(cursor).toMatch(
      new RegExp(`^${world.scenario.fake.graphUrl}/v1\\.0/users/delta\\?\\$deltatoken=`),
    );
  });

  it('a later sync reads only the changes since it, and applies them', async () => {
    const cursor = (await storedCursor())!;
    const before = await rows();
    const diego = idOf('diego.siciliani@fabrikam.com');
    const grady = idOf('grady.archie@fabrikam.com');
    const lee = idOf('lee.gu@fabrikam.com');
    const adele = idOf('adele.vance@fabrikam.com');
    state().putUser(fabrikam, { id: diego, jobTitle: 'Head of Sales' });
    const added = state().putUser(fabrikam, fakeUser(fabrikam, 'Isaiah Langer'));
    state().deleteUser(fabrikam, grady);
    setFakeManager(state(), fabrikam, lee, adele);
    // A role is no change of the user: the round's whole activity read carries it.
    fakeDirectory(fabrikam).roles = [
      { id: 'role-ua', displayName: 'User Administrator', memberIds: [idOf('alex.wilber@fabrikam.com')] },
    ];

    const done = await sync();
    const calls = graphCalls(world);
    const deltas = calls.filter((call) => call.startsWith('GET /v1.0/users/delta'));
    // One page of changes (the fake's pages hold 2 items: 4 changes are 2 pages, the first from the link).
    expect(deltas[0]).toBe(recorded(cursor));
    expect(deltas.slice(1).every((call) => call.includes('$skiptoken='))).toBe(true);
    expect(calls.some((call) => call.includes('/directory/deletedItems'))).toBe(false);
    expect(done.summary).toMatchObject({
      usersCreated: 1,
      usersDeleted: 1,
      usersUpdated: 3, // Diego's title, Lee's manager, Alex's role
      usersRestored: 0,
    });

    const after = await rows();
    expect(after.get('diego.siciliani@fabrikam.com')!.job_title).toBe('Head of Sales');
    expect(after.get('isaiah.langer@fabrikam.com')!.external_id).toBe(added.id);
    expect(after.get('grady.archie@fabrikam.com')!.deleted_at).not.toBeNull();
    expect(after.get('lee.gu@fabrikam.com')!.manager_external_id).toBe(adele);
    expect(after.get('alex.wilber@fabrikam.com')!.directory_roles).toEqual(['User Administrator']);
    // Untouched users are not written.
    expect(after.get('adele.vance@fabrikam.com')!.updated_at).toEqual(
      before.get('adele.vance@fabrikam.com')!.updated_at,
    );
    const next = await storedCursor();
    expect(next).not.toBe(cursor);
  });

  it('a user deleted for good (@removed "deleted") is deleted in our copy; a delta without a manager change keeps it', async () => {
    const lee = idOf('lee.gu@fabrikam.com');
    const isaiah = idOf('isaiah.langer@fabrikam.com');
    state().putUser(fabrikam, { id: lee, jobTitle: 'Engineer' });
    state().deleteUser(fabrikam, isaiah);
    state().purgeUser(fabrikam, isaiah);
    await sync();
    const after = await rows();
    expect(after.get('isaiah.langer@fabrikam.com')!.deleted_at).not.toBeNull();
    expect(after.get('lee.gu@fabrikam.com')).toMatchObject({
      job_title: 'Engineer',
      manager_external_id: idOf('adele.vance@fabrikam.com'),
    });
  });

  it('a failed attempt stores nothing: the retried sync reads the same link again and loses no change', async () => {
    const cursor = (await storedCursor())!;
    const diego = idOf('diego.siciliani@fabrikam.com');
    state().putUser(fabrikam, { id: diego, department: 'Sales' });
    // The groups read fails past the transport's retries: the attempt fails, the job comes back.
    world.scenario.fake.inject({ url: '/v1.0/groups', status: 503, retryAfterSeconds: 1, times: 3 });
    // The queue holds the retry at least the Retry-After (src/core/jobs.ts); made due once it waits there.
    const [, retry] = await Promise.all([
      sync(),
      retryTaskNow(world.app.pool, 'tenant.sync', { organizationId: world.org.organization.id }),
    ]);
    expect(retry.attempts).toBe(1);
    expect(retry.secondsAhead).toBeGreaterThan(1);
    const fromLink = graphCalls(world).filter((call) => call === recorded(cursor));
    expect(fromLink.length).toBe(2);
    const { rows: found } = await world.app.pool.query<{ department: string | null }>(
      'select department from users where tenant_id = $1 and external_id = $2',
      [tenantId, diego],
    );
    expect(found[0].department).toBe('Sales');
    expect(await storedCursor()).not.toBe(cursor);
  });

  it('an expired link (410 syncStateNotFound) falls back to a full round that reconciles as the first', async () => {
    const cursor = (await storedCursor())!;
    const alex = idOf('alex.wilber@fabrikam.com');
    // Gone upstream while the link expired: only a complete round can tell.
    state().expireDeltaLinks(fabrikam);
    fabrikam.users.splice(
      fabrikam.users.findIndex((record) => record.user.id === alex),
      1,
    );
    await sync();
    const requests = world.scenario.fake.requests.filter((request) =>
      request.url.startsWith('/v1.0/users/delta'),
    );
    expect(`GET ${requests[0].url}`).toBe(recorded(cursor));
    expect(requests[0].status).toBe(410);
    expect(requests[1].url).toMatch(/^\/v1\.0\/users\/delta\?\$select=id,userPrincipalName,.*,manager$/);
    expect(
      graphCalls(world).some((call) => call.includes('/directory/deletedItems/microsoft.graph.user')),
    ).toBe(true);
    expect((await rows()).get('alex.wilber@fabrikam.com')!.deleted_at).not.toBeNull();
    const next = await storedCursor();
    expect(next).not.toBeNull();
    expect(next).not.toBe(cursor);
  });
});
