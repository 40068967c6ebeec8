import type { DataOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';
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
 * Retrying an offboarding of a live tenant answers in the house order: permission, existence (404), the
 * offboarding's state (409 unless Failed), and only then what Microsoft 365 cannot do (501, which asks the
 * cloud). The offboarding here asks for the mailbox conversion Graph v1.0 has no API for: one recorded while
 * the organization's live environment acted on the simulated cloud (set in its row: a live start refuses it).
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
let userId: string;
let offboardingId: string;
type OffboardingBody = DataOf<'getUserOffboarding'>;

const retry = (id: string) =>
  um<OffboardingBody>(world.app, 'POST', `/${userId}/offboard/${id}/retry`, { key: world.key, tenantId });

async function queuedJobs(): Promise<number> {
  const { rows } = await world.app.pool.query<{ n: number }>(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'user-offboarding' and key = $1`,
    [`user-offboarding:${offboardingId}`],
  );
  return rows[0].n;
}

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  ({ tenantId } = await onboardAndSyncLive(world));
  const { rows } = await world.app.pool.query<{ id: string }>(
    'select id from users where tenant_id = $1 and user_principal_name = $2',
    [tenantId, 'lee.gu@fabrikam.com'],
  );
  userId = rows[0].id;
  const started = await um<OffboardingBody>(world.app, 'POST', `/${userId}/offboard`, {
    key: world.key,
    tenantId,
    body: { convertMailboxToShared: false, removeLicenses: false },
  });
  expect(started.status).toBe(202);
  offboardingId = started.body.data.id;
  await eventually(
    async () => {
      const {
        rows: [row],
      } = await world.app.pool.query<{ status: string }>(
        'select status from user_offboardings where id = $1',
        [offboardingId],
      );
      expect(row.status).toBe('Completed');
    },
    { timeout: 60_000, what: 'the offboarding to complete' },
  );
  await world.app.pool.query(
    `update user_offboardings set options = options || '{"convertMailboxToShared": true}' where id = $1`,
    [offboardingId],
  );
}, 120_000);
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

it('a Completed offboarding answers 409 with its state, not 501, and asks nothing of Graph', async () => {
  const res = await retry(offboardingId);
  expect(res.status).toBe(409);
  expect(res.body.error).toMatchObject({
    code: 'CONFLICT',
    details: { from: 'Completed', to: 'Queued', allowed: ['Failed'] },
  });
  expect(graphCalls(world)).toEqual([]);
  expect(world.scenario.fake.tokenRequests()).toEqual([]);
});

it('an unknown offboarding answers 404 before anything else', async () => {
  const res = await retry('00000000-0000-4000-8000-000000000000');
  expect(res.status).toBe(404);
  expect(res.body.error?.code).toBe('NOT_FOUND');
});

it('a Failed one whose conversion Microsoft 365 cannot do answers 501 naming the capability; nothing is queued', async () => {
  await world.app.pool.query(
    `update user_offboardings set status = 'Failed', failure_reason = 'failed before' where id = $1`,
    [offboardingId],
  );
  const jobsBefore = await queuedJobs();
  const res = await retry(offboardingId);
  expect(res.status).toBe(501);
  expect(res.body.error).toMatchObject({
    code: 'NOT_SUPPORTED',
    details: { capability: 'sharedMailboxes', provider: 'microsoft365' },
  });
  const { rows } = await world.app.pool.query<{ status: string }>(
    'select status from user_offboardings where id = $1',
    [offboardingId],
  );
  expect(rows[0].status).toBe('Failed');
  expect(await queuedJobs()).toBe(jobsBefore);
});
