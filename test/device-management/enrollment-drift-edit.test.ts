import { fakeEnrollmentConfigurations } from '../graph-fake/graph-fake-enrollment.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import type { SharedApp } from '../helpers/shared-suite.js';
import {
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from '../microsoft365/live-kit.js';
import { api, RESTRICTIONS, type PolicyBody } from './device-management-kit.js';

/**
 * An edit of an enrollment restriction keeps the drift it did not repair (docs/decisions.md "Priority drift and
 * a create Intune took"): the edit writes the policy's settings and assignment to Intune, never its place, so a
 * priority moved in the Intune portal is still reported after an edit (it was cleared until the next sync),
 * while a changed setting, written again by the edit, is not. The reorder and the next sync then clear the rest.
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;

const configurations = () => fakeEnrollmentConfigurations(world.scenario.consented);
const request = <T>(method: string, path: string, body?: unknown) =>
  api<T>(world.app, method, path, { key: world.key, tenantId, body });
const policies = async () => (await request<PolicyBody[]>('GET', RESTRICTIONS)).body.data;
const sync = async () => {
  const done = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as Awaited<
    ReturnType<typeof syncAndWait>
  > & { summary: Record<string, number> };
  expect(done).toMatchObject({ status: 'Completed', error: null });
  return done.summary;
};

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  ({ tenantId } = await onboardAndSyncLive(world));
}, 120_000); // an onboarding and a sync on the Graph fake: past the default 30 s on a loaded machine
afterAll(() => stopLiveWorld(world));

it('an edit keeps a priority moved in the portal and clears the settings it wrote again', async () => {
  const made: PolicyBody[] = [];
  for (const [name, deviceLimit] of [
    ['Drift: first', 3],
    ['Drift: second', 4],
  ] as const) {
    const created = await request<PolicyBody>('POST', RESTRICTIONS, {
      name,
      restrictionType: 'Device Limit Restrictions',
      assignedToAllUsers: true,
      deviceLimit,
    });
    expect(created.status).toBe(201);
    made.push(created.body.data);
  }
  const [first, second] = made.map((policy) =>
    configurations().find((found) => found.displayName === policy.name)!,
  );
  // In the Intune portal the admin swaps the two and raises the first one's limit.
  [first.priority, second.priority] = [second.priority, first.priority];
  first.limit = 9;
  expect((await sync()).enrollmentRestrictionsDrifted).toBe(2);
  const drifted = new Map((await policies()).map((policy) => [policy.id, policy.cloudDrift]));
  expect(drifted.get(made[0].id)).toBe('Changed in Intune: priority 2 (ours 1), limit 9 (ours 3)');
  expect(drifted.get(made[1].id)).toBe('Changed in Intune: priority 1 (ours 2)');

  // An edit of the description: the place still differs in Intune, and says so.
  const described = await request<PolicyBody>('PUT', `${RESTRICTIONS}/${made[1].id}`, {
    description: 'edited while moved in the portal',
  });
  expect(described.status).toBe(200);
  expect(described.body.data.cloudDrift).toBe('Changed in Intune: priority 1 (ours 2)');
  // An edit of the first writes its limit again (3): that part is gone, the moved place is not.
  const renamed = await request<PolicyBody>('PUT', `${RESTRICTIONS}/${made[0].id}`, {
    name: 'Drift: first (3)',
  });
  expect(renamed.status).toBe(200);
  expect(first.limit).toBe(3);
  expect(renamed.body.data.cloudDrift).toBe('Changed in Intune: priority 2 (ours 1)');
  // Read again, as stored.
  const stored = new Map((await policies()).map((policy) => [policy.id, policy.cloudDrift]));
  expect([stored.get(made[0].id), stored.get(made[1].id)]).toEqual([
    'Changed in Intune: priority 2 (ours 1)',
    'Changed in Intune: priority 1 (ours 2)',
  ]);

  // The reorder to our order puts Intune back; the next sync finds nothing.
  const order = (await policies()).filter((policy) => !policy.isDefault).map((policy) => policy.id);
  expect((await request('PUT', `${RESTRICTIONS}/priority`, { policyIds: order })).status).toBe(200);
  expect((await sync()).enrollmentRestrictionsDrifted).toBe(0);
  for (const policy of await policies()) expect(policy.cloudDrift).toBeNull();
}, 120_000);
