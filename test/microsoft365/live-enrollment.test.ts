import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import { fakeEnrollmentConfigurations } from '../graph-fake/graph-fake-enrollment.js';
import { gate } from '../helpers/cloud-gate.js';
import { eventually } from '../helpers/eventually.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { api, RESTRICTIONS, type PolicyBody } from '../device-management/device-management-kit.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Enrollment restrictions in the live environment, end to end on the Graph fake: our policy writes reach
 * Intune's deviceEnrollmentConfigurations (create, update, priority, assignment) in the request, a cloud that
 * refuses or throttles stores nothing, a retried create does not create twice, and the sync reports a
 * configuration changed in the Intune portal as drift. docs/microsoft365.md "Enrollment restrictions".
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
const GROUP_ID = '6f1d4c7a-0000-4000-8000-00000000e001';
const CONFIGURATIONS = '/v1.0/deviceManagement/deviceEnrollmentConfigurations';

const configurations = () => fakeEnrollmentConfigurations(world.scenario.consented);
const request = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  api<T>(world.app, method, path, { key: world.key, tenantId, body, headers });
const policies = async () => (await request<PolicyBody[]>('GET', RESTRICTIONS)).body.data;

/** Our id of the synced group the fake's Entra group became. */
async function groupId(): Promise<string> {
  const { rows } = await world.app.pool.query<{ id: string }>(
    'select id from groups where tenant_id = $1 and external_id = $2',
    [tenantId, GROUP_ID],
  );
  return rows[0].id;
}

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  fakeDirectory(world.scenario.consented).groups.push({
    id: GROUP_ID,
    displayName: 'Contractors',
    memberIds: [],
  });
  ({ tenantId } = await onboardAndSyncLive(world));
});
afterAll(async () => {
  // The database is the worker's shared server's: the save failure this file puts in it goes with the file.
  await world?.app.pool.query(`
    drop trigger if exists fail_enrollment_insert on enrollment_restrictions;
    drop function if exists fail_enrollment_insert_once();
    drop sequence if exists fail_enrollment_insert_seq;`);
  await stopLiveWorld(world);
});
beforeEach(() => world.scenario.fake.clearRequests());

describe('policy writes reach Intune in the request', () => {
  let limitId: string;
  let typeId: string;

  it('a device limit restriction: created, assigned to its group, its cloud id kept', async () => {
    const created = await request<PolicyBody>('POST', RESTRICTIONS, {
      name: 'Contractors: 3 devices',
      restrictionType: 'Device Limit Restrictions',
      groupIds: [await groupId()],
      deviceLimit: 3,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    limitId = created.body.data.id;
    const made = configurations().find((found) => found.displayName === 'Contractors: 3 devices')!;
    expect(made).toMatchObject({
      '@odata.type': '#microsoft.graph.deviceEnrollmentLimitConfiguration',
      limit: 3,
      priority: 1,
      assignments: [
        { target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: GROUP_ID } },
      ],
    });
    expect(graphCalls(world)).toEqual([
      `GET ${CONFIGURATIONS}`, // the keyed create looks for a configuration a first try made
      `POST ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}/${made.id}/assign`,
    ]);
    const { rows } = await world.app.pool.query<{ cloud_id: string }>(
      'select cloud_id from enrollment_restrictions where id = $1',
      [limitId],
    );
    expect(rows[0].cloud_id).toBe(made.id);
  });

  it('a device type restriction: the platform rules as Graph v1.0 names them, first of its own kind in Intune', async () => {
    const created = await request<PolicyBody>('POST', RESTRICTIONS, {
      name: 'No personal iOS',
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [
        { platform: 'Windows MDM', allowed: false },
        { platform: 'iOS/iPadOS', allowed: true, personalAllowed: false, minOsVersion: '17.4' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.priority).toBe(2); // ours: after the device limit restriction
    typeId = created.body.data.id;
    const made = configurations().find((found) => found.displayName === 'No personal iOS')!;
    const allowed = {
      platformBlocked: false,
      personalDeviceEnrollmentBlocked: false,
      osMinimumVersion: null,
      osMaximumVersion: null,
    };
    // Intune orders each kind on its own: the first platform restriction is its kind's 1 (no setPriority).
    expect(made).toMatchObject({
      '@odata.type': '#microsoft.graph.deviceEnrollmentPlatformRestrictionsConfiguration',
      priority: 1,
      windowsRestriction: { ...allowed, platformBlocked: true },
      iosRestriction: { ...allowed, personalDeviceEnrollmentBlocked: true, osMinimumVersion: '17.4' },
      macOSRestriction: allowed,
      androidRestriction: allowed,
      assignments: [{ target: { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' } }],
    });
    expect(graphCalls(world)).toEqual([
      `GET ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}/${made.id}/assign`,
    ]);
  });

  it('an update with If-Match PATCHes the configuration and assigns it again; our ETag moves', async () => {
    const updated = await request<PolicyBody>(
      'PUT',
      `${RESTRICTIONS}/${limitId}`,
      { deviceLimit: 5 },
      { 'If-Match': '"1"' },
    );
    expect(updated.status).toBe(200);
    expect(updated.headers.get('etag')).toBe('"2"');
    const made = configurations().find((found) => found.displayName === 'Contractors: 3 devices')!;
    expect(made).toMatchObject({ limit: 5, version: 2 });
    expect(graphCalls(world)).toEqual([
      `PATCH ${CONFIGURATIONS}/${made.id}`,
      `POST ${CONFIGURATIONS}/${made.id}/assign`,
    ]);
    const stale = await request(
      'PUT',
      `${RESTRICTIONS}/${limitId}`,
      { deviceLimit: 6 },
      { 'If-Match': '"1"' },
    );
    expect(stale.status).toBe(412);
  });

  it('a reorder across kinds changes no place in Intune, whose order is per kind: read, nothing moved', async () => {
    const res = await request<PolicyBody[]>('PUT', `${RESTRICTIONS}/priority`, {
      policyIds: [typeId, limitId],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((policy) => [policy.id, policy.priority])).toEqual([
      [typeId, 1],
      [limitId, 2],
      [expect.any(String), 3],
    ]);
    const byName = (name: string) => configurations().find((found) => found.displayName === name)!;
    expect(byName('No personal iOS').priority).toBe(1);
    expect(byName('Contractors: 3 devices').priority).toBe(1);
    expect(graphCalls(world)).toEqual([`GET ${CONFIGURATIONS}`]);
  });

  it("the default's limit is Intune's default device limit (priority 0)", async () => {
    const fallback = (await policies()).find((policy) => policy.isDefault)!;
    const res = await request<PolicyBody>('PUT', `${RESTRICTIONS}/${fallback.id}`, { deviceLimit: 12 });
    expect(res.status).toBe(200);
    const builtIn = configurations().find((found) => found.id.endsWith('_DefaultLimit'))!;
    expect(builtIn.limit).toBe(12);
    expect(graphCalls(world)).toEqual([`GET ${CONFIGURATIONS}`, `PATCH ${CONFIGURATIONS}/${builtIn.id}`]);
  });
});

describe('through GraphQL with the live key', () => {
  it('creates, updates with ifMatch and reorders: the same Intune calls as REST', async () => {
    const created = await world.app.graphql<{ createEnrollmentRestriction: { id: string; version: number } }>(
      world.key,
      `mutation ($tenantId: UUID!) {
        createEnrollmentRestriction(tenantId: $tenantId, input: {
          name: "GraphQL limit", restrictionType: DEVICE_LIMIT, assignedToAllUsers: true, deviceLimit: 2
        }) { id version }
      }`,
      { tenantId },
    );
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data!.createEnrollmentRestriction.id;
    const made = configurations().find((found) => found.displayName === 'GraphQL limit')!;
    expect(made).toMatchObject({ limit: 2 });
    expect(graphCalls(world)).toEqual(
      expect.arrayContaining([`POST ${CONFIGURATIONS}`, `POST ${CONFIGURATIONS}/${made.id}/assign`]),
    );
    world.scenario.fake.clearRequests();
    const updated = await world.app.graphql<{ updateEnrollmentRestriction: { version: number } }>(
      world.key,
      `mutation ($tenantId: UUID!, $id: UUID!) {
        updateEnrollmentRestriction(tenantId: $tenantId, id: $id, input: { deviceLimit: 4 }, ifMatch: "1") { version }
      }`,
      { tenantId, id },
    );
    expect(updated.body.data!.updateEnrollmentRestriction.version).toBe(2);
    expect(made.limit).toBe(4);
    expect(graphCalls(world)).toEqual([
      `PATCH ${CONFIGURATIONS}/${made.id}`,
      `POST ${CONFIGURATIONS}/${made.id}/assign`,
    ]);
    world.scenario.fake.clearRequests();
    const others = (await policies()).filter((policy) => !policy.isDefault && policy.id !== id);
    const reordered = await world.app.graphql(
      world.key,
      `mutation ($tenantId: UUID!, $policyIds: [UUID!]!) {
        reorderEnrollmentRestrictions(tenantId: $tenantId, policyIds: $policyIds) { id priority }
      }`,
      { tenantId, policyIds: [id, ...others.map((policy) => policy.id)] },
    );
    expect(reordered.body.errors).toBeUndefined();
    // Within the device limits, ours first in our order: the new one moves to 1, the other shifts to 2.
    const contractors = configurations().find((found) => found.displayName === 'Contractors: 3 devices')!;
    expect([made.priority, contractors.priority]).toEqual([1, 2]);
    expect(graphCalls(world)).toEqual([
      `GET ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}/${made.id}/setPriority`,
    ]);
    expect(world.scenario.fake.requests.find((r) => r.url.endsWith('/setPriority'))!.body).toEqual({
      priority: 1,
    });
  });
});

describe('what Intune cannot hold, or a throttled Intune, stores nothing', () => {
  it('a manufacturer block answers 501 NOT_SUPPORTED naming the setting; no write reaches Graph', async () => {
    const before = (await policies()).length;
    const res = await request('POST', RESTRICTIONS, {
      name: 'No Huawei',
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [
        { platform: 'Android Enterprise', allowed: true, blockedManufacturers: ['Huawei'] },
      ],
    });
    expect(res.status).toBe(501);
    expect(res.body.error).toMatchObject({ code: 'NOT_SUPPORTED' });
    expect(res.body.error!.message).toContain('blockedManufacturers');
    expect(graphCalls(world).filter((call) => !call.startsWith('GET'))).toEqual([]);
    expect((await policies()).length).toBe(before);
  });

  it('a 429 from Intune answers 503 with Retry-After; the create Intune took is undone, and the retry makes it once', async () => {
    const before = (await policies()).length;
    // The create reaches Intune, then its assignment is throttled for longer than a call waits.
    world.scenario.fake.inject({ url: /\/assign$/, status: 429, retryAfterSeconds: 120 });
    const body = {
      name: 'Retried limit',
      restrictionType: 'Device Limit Restrictions',
      assignedToAllUsers: true,
      deviceLimit: 4,
    };
    const throttled = await request('POST', RESTRICTIONS, body);
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe('120');
    expect((await policies()).length).toBe(before);
    // The 503 holds for Intune too: the configuration the create made is deleted again.
    expect(graphCalls(world).filter((call) => call.startsWith('DELETE '))).toHaveLength(1);
    expect(configurations().filter((found) => found.displayName === 'Retried limit')).toHaveLength(0);
    world.scenario.fake.clearRequests();
    const retried = await request<PolicyBody>('POST', RESTRICTIONS, body);
    expect(retried.status).toBe(201);
    expect(configurations().filter((found) => found.displayName === 'Retried limit')).toHaveLength(1);
    expect(graphCalls(world).filter((call) => call === `POST ${CONFIGURATIONS}`)).toHaveLength(1);
  });
});

describe('Graph is called outside the default policy lock, and a save that fails after it is safe to retry', () => {
  it("while Intune answers a create, the tenant's default policy row is not locked", async () => {
    // Intune's answer is held until the lock has been looked at.
    const answer = gate();
    world.scenario.fake.inject({
      url: /deviceEnrollmentConfigurations$/,
      method: 'POST',
      status: 201,
      until: answer.opened,
    });
    const pending = request<PolicyBody>('POST', RESTRICTIONS, {
      name: 'Slow limit',
      restrictionType: 'Device Limit Restrictions',
      assignedToAllUsers: true,
      deviceLimit: 6,
    });
    await eventually(() => expect(graphCalls(world)).toContain(`POST ${CONFIGURATIONS}`));
    const client = await world.app.pool.connect();
    try {
      await client.query('begin');
      const locked = await client.query(
        'select id from enrollment_restrictions where tenant_id = $1 and is_default for update nowait',
        [tenantId],
      );
      expect(locked.rowCount).toBe(1);
      await client.query('rollback');
    } finally {
      client.release();
      answer.open();
    }
    expect((await pending).status).toBe(201);
  });

  it('a save that fails after Intune took the create stores nothing and removes the configuration; the retry makes it again', async () => {
    const before = (await policies()).length;
    // The database refuses the policy's row once: Graph has answered, the save fails (as a crash would).
    // (A sequence, not a flag in a table: it counts even in the transaction the failure rolls back.)
    await world.app.pool.query(`
      create sequence fail_enrollment_insert_seq;
      create function fail_enrollment_insert_once() returns trigger language plpgsql security definer as $$
      begin
        if nextval('fail_enrollment_insert_seq') = 1 then
          raise exception 'the save failed after the cloud call';
        end if;
        return new;
      end $$;
      create trigger fail_enrollment_insert before insert on enrollment_restrictions
        for each row when (new.name = 'Saved later') execute function fail_enrollment_insert_once();`);
    const body = {
      name: 'Saved later',
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [{ platform: 'macOS', allowed: false }],
    };
    const failed = await request('POST', RESTRICTIONS, body);
    expect(failed.status).toBe(500);
    expect((await policies()).length).toBe(before);
    expect(configurations().filter((found) => found.displayName === 'Saved later')).toHaveLength(0);
    expect(graphCalls(world).filter((call) => call.startsWith('DELETE '))).toHaveLength(1);
    world.scenario.fake.clearRequests();
    const retried = await request<PolicyBody>('POST', RESTRICTIONS, body);
    expect(retried.status).toBe(201);
    const made = configurations().filter((found) => found.displayName === 'Saved later');
    expect(made).toHaveLength(1);
    expect(graphCalls(world)).toEqual([
      `GET ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}/${made[0].id}/assign`,
    ]);
    const { rows } = await world.app.pool.query<{ cloud_id: string }>(
      'select cloud_id from enrollment_restrictions where id = $1',
      [retried.body.data.id],
    );
    expect(rows[0].cloud_id).toBe(made[0].id);
  });

  it('an update saved by another request meanwhile: 412 with If-Match, and Intune gets the stored values back', async () => {
    const policy = (await policies()).find((found) => found.name === 'Slow limit')!;
    const made = configurations().find((found) => found.displayName === 'Slow limit')!;
    // Intune answers our PATCH slowly (held until then); another update is saved while it does.
    const answer = gate();
    world.scenario.fake.inject({
      url: made.id,
      method: 'PATCH',
      status: 200,
      until: answer.opened,
      times: 1,
    });
    const slow = request('PUT', `${RESTRICTIONS}/${policy.id}`, { deviceLimit: 7 }, { 'If-Match': '"1"' });
    await eventually(() => expect(graphCalls(world)).toContain(`PATCH ${CONFIGURATIONS}/${made.id}`));
    const fast = await request<PolicyBody>('PUT', `${RESTRICTIONS}/${policy.id}`, {
      deviceLimit: 8,
    }).finally(answer.open);
    expect(fast.status).toBe(200);
    expect((await slow).status).toBe(412);
    expect((await policies()).find((found) => found.id === policy.id)).toMatchObject({
      deviceLimit: 8,
      version: 2,
    });
    expect(made.limit).toBe(8);
  });
});

describe('blocked enrollment attempts', () => {
  it('answer 501 NOT_SUPPORTED naming blockedEnrollments rather than an empty list', async () => {
    const res = await request('GET', `${RESTRICTIONS}/blocked`);
    expect(res.status).toBe(501);
    expect(res.body.error).toMatchObject({
      code: 'NOT_SUPPORTED',
      details: { capability: 'blockedEnrollments', provider: 'microsoft365' },
    });
    expect(graphCalls(world)).toEqual([]);
  });
});

describe('sync', () => {
  it('says blocked enrollment attempts are not available and reports a change made in the Intune portal as drift', async () => {
    const made = configurations().find((found) => found.displayName === 'Contractors: 3 devices')!;
    made.limit = 9;
    const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as Awaited<
      ReturnType<typeof syncAndWait>
    > & { warnings: string[]; summary: Record<string, number> };
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary.enrollmentRestrictionsDrifted).toBe(1);
    expect(sync.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^device-management: blocked enrollment attempts not available on microsoft365/,
        ),
      ]),
    );
    const drifted = (await policies()).find((policy) => policy.name === 'Contractors: 3 devices')!;
    expect(drifted).toMatchObject({ deviceLimit: 5, cloudDrift: 'Changed in Intune: limit 9 (ours 5)' });
    // The next edit writes ours again and clears the drift.
    const res = await request<PolicyBody>('PUT', `${RESTRICTIONS}/${drifted.id}`, { deviceLimit: 5 });
    expect(res.body.data.cloudDrift).toBeNull();
    expect(made.limit).toBe(5);
  });
});

describe('a create Intune took and could not undo, and a priority moved in the Intune portal', () => {
  it('a create whose undo Intune refuses too leaves the configuration for the retry, which adopts it', async () => {
    const body = {
      name: 'Adopted limit',
      restrictionType: 'Device Limit Restrictions',
      assignedToAllUsers: true,
      deviceLimit: 2,
    };
    world.scenario.fake.inject({ url: /\/assign$/, status: 400, message: 'The assignment was refused.' });
    world.scenario.fake.inject({
      method: 'DELETE',
      url: CONFIGURATIONS,
      status: 429,
      retryAfterSeconds: 120,
    });
    const refused = await request('POST', RESTRICTIONS, body);
    expect(refused.status).toBe(409);
    const made = configurations().filter((found) => found.displayName === 'Adopted limit');
    expect(made).toHaveLength(1);
    world.scenario.fake.clearRequests();
    const retried = await request<PolicyBody>('POST', RESTRICTIONS, body);
    expect(retried.status).toBe(201);
    expect(graphCalls(world)).toEqual([
      `GET ${CONFIGURATIONS}`,
      `POST ${CONFIGURATIONS}/${made[0].id}/assign`,
    ]);
  });

  it('the sync reports a priority moved in the portal as drift; the next reorder puts ours back', async () => {
    const ours = (await policies()).filter(
      (policy) => !policy.isDefault && policy.restrictionType === 'Device Limit Restrictions',
    );
    const [first, second] = ours.map((policy) =>
      configurations().find((found) => found.displayName === policy.name)!,
    );
    // The admin swaps our first two device limits in the Intune portal.
    [first.priority, second.priority] = [second.priority, first.priority];
    const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as Awaited<
      ReturnType<typeof syncAndWait>
    > & { summary: Record<string, number> };
    expect(sync.summary.enrollmentRestrictionsDrifted).toBe(2);
    const drifted = await policies();
    expect(drifted.find((policy) => policy.id === ours[0].id)!.cloudDrift).toBe(
      'Changed in Intune: priority 2 (ours 1)',
    );
    expect(drifted.find((policy) => policy.id === ours[1].id)!.cloudDrift).toBe(
      'Changed in Intune: priority 1 (ours 2)',
    );
    // Our order is unchanged (ours stays the truth); a reorder to it moves Intune back.
    const order = drifted.filter((policy) => !policy.isDefault).map((policy) => policy.id);
    expect(order.indexOf(ours[0].id)).toBeLessThan(order.indexOf(ours[1].id));
    world.scenario.fake.clearRequests();
    expect((await request('PUT', `${RESTRICTIONS}/priority`, { policyIds: order })).status).toBe(200);
    expect(graphCalls(world).filter((call) => call.endsWith('/setPriority'))).toEqual([
      `POST ${CONFIGURATIONS}/${first.id}/setPriority`,
    ]);
    expect([first.priority, second.priority]).toEqual([1, 2]);
    const again = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as Awaited<
      ReturnType<typeof syncAndWait>
    > & { summary: Record<string, number> };
    expect(again.summary.enrollmentRestrictionsDrifted).toBe(0);
  });
});
