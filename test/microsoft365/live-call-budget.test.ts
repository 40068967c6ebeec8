import { syncAndWait } from '../helpers/tenant-sync.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { graphCalls, onboardLive, realmLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * A fan-out job under the tenant's cloud call budget (src/cloud/cloud-call-budget.ts), on the Graph fake: a
 * sync whose Graph calls outrun a small budget waits for each window (on the test's clock) and its result
 * says how long; a request that finds the budget used up answers 503 with Retry-After and sends nothing.
 */
let world: LiveWorld<RealmApp>;
const WINDOW = { seconds: 20, limit: 4 };

beforeAll(async () => {
  // maxWaitSeconds: the sync's reads run side by side and a call may lose the race for several windows; here
  // it keeps waiting (on the clock) rather than fail Throttled and leave the retry to the queue's real time.
  world = await realmLiveWorld({
    jobs: true,
    cloudCallBudget: { limits: { graph: [WINDOW] }, maxWaitSeconds: 3600 },
  });
});
afterAll(() => stopLiveWorld(world));

it('a tenant sync waits for the budget window by window and reports the wait in its result', async () => {
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  const tenantId = onboarded.body.data!.onboardTenant.id;
  world.scenario.fake.clearRequests();
  const started = world.app.clock.now().getTime();
  const sync = (await syncAndWait(world.app, world.org, tenantId, 60_000, world.key)) as Awaited<
    ReturnType<typeof syncAndWait>
  > & { warnings: string[]; summary: Record<string, number> };
  expect(sync).toMatchObject({ status: 'Completed', error: null });
  const calls = graphCalls(world).length;
  expect(calls).toBeGreaterThan(WINDOW.limit);
  // Every window of 4 calls but the first waited for its predecessor's 20 s to end.
  expect(sync.summary.cloudCallWaitMs).toBeGreaterThanOrEqual(20_000);
  // The reads wait side by side: the total is how long the sync was held up, within the clock's move.
  expect(sync.summary.cloudCallWaitMs).toBeLessThanOrEqual(world.app.clock.now().getTime() - started);
  expect(sync.warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^The sync waited \d+ s for the tenant's cloud call budget/),
    ]),
  );
}, 90_000);

it('a request does not wait: with the window used up it answers 503 with Retry-After and stores nothing', async () => {
  const { rows } = await world.app.pool.query<{ id: string }>(
    'select id from tenants where organization_id = $1',
    [world.org.organization.id],
  );
  const tenantId = rows[0].id;
  world.app.clock.advance(WINDOW.seconds * 1000); // every window of the sync has ended
  world.scenario.fake.clearRequests();
  const create = (name: string) =>
    world.app.request('POST', '/api/devices/enrollment-restrictions', {
      key: world.key,
      headers: { 'X-Tenant-Id': tenantId },
      body: { name, restrictionType: 'Device Limit Restrictions', assignedToAllUsers: true, deviceLimit: 3 },
    });
  expect((await create('First')).status).toBe(201); // 3 calls: the keyed lookup, the POST, the assignment
  world.scenario.fake.clearRequests();
  const refused = await create('Second'); // the lookup is the window's 4th call; the POST finds no room
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe(String(WINDOW.seconds));
  expect(graphCalls(world)).toEqual(['GET /v1.0/deviceManagement/deviceEnrollmentConfigurations']);
  const { rows: stored } = await world.app.pool.query(
    'select name from enrollment_restrictions where tenant_id = $1 and not is_default',
    [tenantId],
  );
  expect(stored).toEqual([{ name: 'First' }]);
});
