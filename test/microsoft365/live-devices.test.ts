import { fakeDefender, fakeMachine, fakeRecommendation } from '../graph-fake/graph-fake-defender.js';
import { fakeManagedDevice, fakeManagedDevices } from '../graph-fake/graph-fake-devices.js';
import { eventually } from '../helpers/eventually.js';
import { retryTaskNow } from '../helpers/job-queue.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import type { FakeMachineAction } from '../graph-fake/graph-fake-defender.js';
import { api } from '../security/security-kit.js';
import {
  graphCalls,
  onboardAndSyncLive,
  sharedLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';
import type { SharedApp } from '../helpers/shared-suite.js';

/**
 * Devices in the live environment, end to end on the fakes: a sync brings Intune's managed devices in, joined
 * with Defender for Endpoint's machines; isolating a device over REST and scanning one over GraphQL are jobs
 * that post Defender's machine action with the documented body and follow it Pending → InProgress →
 * Succeeded; a throttled Defender is waited for by the job, which still posts once.
 */
let world: LiveWorld<SharedApp>;
let tenantId: string;
let firstSyncCalls: string[];
let firstSyncDefenderCalls: string[];

/**
 * The job's pause between two reads of an action Defender reports InProgress: the fake moves an action on each
 * read, so the server's 5 s only made each action wait; 0.5 s still leaves the row InProgress for many of
 * `statusesOf`'s 100 ms reads. The shared live server polls so for every file.
 */
const POLL_DELAY_MS = 500;

const LAPTOP = '5c2d3e4f-0000-4000-8000-00000000d001';
const PHONE = '5c2d3e4f-0000-4000-8000-00000000d002';

interface DeviceBody {
  id: string;
  deviceName: string;
  osPlatform: string;
  riskLevel: string;
  onboardingStatus: string;
  complianceState: string;
  isolationState: string;
}
interface ActionBody {
  id: string;
  kind: string;
  status: string;
}

const defender = () => fakeDefender(world.scenario.consented);
const defenderCalls = () => world.scenario.fake.defenderCalls();
const devices = async () =>
  (await api<DeviceBody[]>(world.app, 'GET', '/device-security', { key: world.key, tenantId })).body.data;
const deviceId = async (name: string) => (await devices()).find((device) => device.deviceName === name)!.id;

/**
 * Waits for a device action to end; its status. The job polls Defender every POLL_DELAY_MS (and a retried start
 * waits out a Retry-After first), so the wait is longer than security-kit's.
 */
async function waitForAction(actionId: string): Promise<string> {
  return (await statusesOf(actionId)).at(-1)!;
}

/** The statuses a device action row goes through, read every 100 ms (InProgress lasts a poll, 500 ms) until it ends. */
async function statusesOf(actionId: string): Promise<string[]> {
  const seen: string[] = [];
  await eventually(
    async () => {
      const { rows } = await world.app.pool.query<{ status: string }>(
        'select status from device_actions where id = $1',
        [actionId],
      );
      if (seen.at(-1) !== rows[0].status) seen.push(rows[0].status);
      expect(['Succeeded', 'Failed']).toContain(rows[0].status);
    },
    { timeout: 45_000, interval: 100, what: `device action ${actionId} to finish` },
  );
  return seen;
}

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  // The shared live server's (LIVE_DEVICE_ACTION_POLL_MS, test/helpers/shared-live-server.ts).
  expect(world.app.deps.deviceActions?.pollDelayMs).toBe(POLL_DELAY_MS);
  const adele = world.scenario.consented.users.find((record) => record.user.displayName === 'Adele Vance')!;
  fakeManagedDevices(world.scenario.consented).push(
    fakeManagedDevice({ deviceName: 'LAPTOP-ADELE', azureADDeviceId: LAPTOP, userId: adele.user.id }),
    fakeManagedDevice({
      deviceName: 'Adele iPhone',
      operatingSystem: 'iOS',
      osVersion: '18.1',
      azureADDeviceId: PHONE,
      manufacturer: 'Apple',
      model: 'iPhone 15',
      userId: adele.user.id,
    }),
  );
  const laptop = fakeMachine({ aadDeviceId: LAPTOP, riskScore: 'High', exposureLevel: 'High' });
  defender().machines.push(laptop);
  defender().recommendations.push(
    fakeRecommendation({ id: 'va-_-google-_-chrome', machineIds: [laptop.id] }),
  );
  ({ tenantId } = await onboardAndSyncLive(world));
  firstSyncCalls = graphCalls(world);
  firstSyncDefenderCalls = defenderCalls();
}, 60_000);
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

describe('devices in the live environment (Intune + Defender for Endpoint)', () => {
  it('the sync brings Intune devices in, joined with Defender machines by Entra ID device id', async () => {
    expect(firstSyncCalls.filter((call) => call.includes('/deviceManagement/managedDevices'))).toEqual([
      expect.stringMatching(/^GET \/v1\.0\/deviceManagement\/managedDevices\?\$select=id,deviceName,/),
    ]);
    expect(firstSyncDefenderCalls).toEqual([
      'GET /api/machines',
      "GET /api/machineactions?$filter=type eq 'Isolate' or type eq 'Unisolate'",
      'GET /api/recommendations',
      'GET /api/recommendations/va-_-google-_-chrome/machineReferences',
    ]);
    expect(await devices()).toEqual([
      expect.objectContaining({
        deviceName: 'LAPTOP-ADELE',
        osPlatform: 'Windows',
        riskLevel: 'High',
        onboardingStatus: 'Onboarded',
        complianceState: 'Compliant',
        isolationState: 'Not isolated',
      }),
      expect.objectContaining({
        deviceName: 'Adele iPhone',
        riskLevel: 'No data',
        onboardingStatus: 'Can be Onboarded',
      }),
    ]);
    // Defender's open recommendation of the laptop feeds the device recommendations.
    const recommendations = await api<Array<{ id: string; title: string; affectedDeviceCount: number }>>(
      world.app,
      'GET',
      '/device-security/recommendations',
      { key: world.key, tenantId },
    );
    expect(recommendations.body.data).toEqual([
      expect.objectContaining({ id: 'update-chrome', title: 'Update Google Chrome', affectedDeviceCount: 1 }),
    ]);
  });

  it("isolating over REST posts Defender's isolate and the job follows it Pending → InProgress → Succeeded", async () => {
    const id = await deviceId('LAPTOP-ADELE');
    const started = await api<ActionBody>(world.app, 'POST', `/devices/${id}/isolate`, {
      key: world.key,
      tenantId,
      body: { type: 'Selective isolation', reason: 'Ransomware behaviour', notes: 'Ticket 4711' },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ kind: 'Isolate', status: 'Pending' });
    const actionId = started.body.data.id;
    const statuses = await statusesOf(actionId);
    expect(statuses.at(-1)).toBe('Succeeded');
    expect(['Pending', 'InProgress', 'Succeeded']).toEqual(expect.arrayContaining(statuses));
    expect(statuses).toContain('InProgress');

    const [machine] = defender().machines;
    const [action] = defender().actions;
    const calls = defenderCalls();
    expect(calls.slice(0, 3)).toEqual([
      `GET /api/machines?$filter=aadDeviceId eq '${LAPTOP}'`,
      `GET /api/machineactions?$filter=machineId eq '${machine.id}'`,
      `POST /api/machines/${machine.id}/isolate`,
    ]);
    // Then the action is read until Defender says Succeeded (Pending, InProgress, Succeeded).
    expect(calls.slice(3)).toEqual(Array(calls.length - 3).fill(`GET /api/machineactions/${action.id}`));
    expect(calls.length - 3).toBeGreaterThanOrEqual(2);
    expect(world.scenario.fake.requests.find((r) => r.method === 'POST')?.body).toEqual({
      Comment: `Ransomware behaviour - Ticket 4711 [msp-action ${actionId} device ${LAPTOP}]`,
      IsolationType: 'Selective',
    });
    const status = await api<{ state: string; isolationType: string }>(
      world.app,
      'GET',
      `/devices/${id}/isolation-status`,
      { key: world.key, tenantId },
    );
    expect(status.body.data).toMatchObject({ state: 'Isolated', isolationType: 'Selective isolation' });
  }, 60_000);

  it('a scan over GraphQL waits out a throttled Defender (429, Retry-After) in the job and posts it once', async () => {
    const id = await deviceId('LAPTOP-ADELE');
    world.scenario.fake.inject({
      service: 'defender',
      url: '/runAntiVirusScan',
      status: 429,
      retryAfterSeconds: 3, // longer than a call waits (2 s here): the job comes back after it
    });
    const res = await world.app.graphql<{ scanDevice: { id: string; status: string } }>(
      world.key,
      `mutation($t: UUID!, $id: UUID!) { scanDevice(tenantId: $t, id: $id, input: { type: FULL }) { id status } }`,
      { t: tenantId, id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.scanDevice.status).toBe('PENDING');
    // The job's start met the 429: its attempt failed Throttled and the queue holds the retry for Defender's
    // Retry-After (src/core/jobs.ts). The test does not sit that wait out.
    const retry = await retryTaskNow(world.app.pool, 'device-action', {
      actionId: res.body.data!.scanDevice.id,
    });
    expect(retry.attempts).toBe(1);
    expect(retry.secondsAhead).toBeGreaterThan(1);
    expect(await waitForAction(res.body.data!.scanDevice.id)).toBe('Succeeded');

    const posts = world.scenario.fake.requests.filter((r) => r.service === 'defender' && r.method === 'POST');
    expect(posts.map((r) => [r.url.split('/').at(-1), r.status])).toEqual([
      ['runAntiVirusScan', 429],
      ['runAntiVirusScan', 201],
    ]);
    expect(posts[1].body).toEqual({
      Comment: `[msp-action ${res.body.data!.scanDevice.id} device ${LAPTOP}]`,
      ScanType: 'Full',
    });
    expect(defender().actions.filter((action) => action.type === 'RunAntiVirusScan')).toHaveLength(1);
    const { rows } = await world.app.pool.query<{
      duration_seconds: number | null;
      threats_found: number | null;
    }>('select duration_seconds, threats_found from device_actions where id = $1', [
      res.body.data!.scanDevice.id,
    ]);
    expect(rows[0]).toEqual({ duration_seconds: expect.any(Number), threats_found: null });
  }, 60_000);

  it('a start whose answer is lost (Defender took the POST, then 504) is retried by the job without posting twice', async () => {
    const id = await deviceId('LAPTOP-ADELE');
    world.scenario.fake.inject({
      service: 'defender',
      url: '/runAntiVirusScan',
      status: 504,
      retryAfterSeconds: 1,
      lostAnswer: true,
    });
    const started = await api<ActionBody>(world.app, 'POST', `/device-security/${id}/scan`, {
      key: world.key,
      tenantId,
      body: { type: 'quick' },
    });
    expect(started.status).toBe(202);
    // The attempt without an answer failed (Transient); its retry is made due now instead of after the queue's wait.
    expect(
      (await retryTaskNow(world.app.pool, 'device-action', { actionId: started.body.data.id })).attempts,
    ).toBe(1);
    expect(await waitForAction(started.body.data.id)).toBe('Succeeded');
    const [machine] = defender().machines;
    const calls = defenderCalls();
    // The retried run looked for its action (our id in the Comment) and found it: one POST.
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      `POST /api/machines/${machine.id}/runAntiVirusScan`,
    ]);
    const lookUps = calls.filter(
      (call) => call.startsWith('GET /api/machineactions?') && !call.includes('$skip'),
    );
    expect(lookUps).toHaveLength(2);
    const scans = defender().actions.filter((action) =>
      action.requestorComment?.includes(`[msp-action ${started.body.data.id} `),
    );
    expect(scans).toHaveLength(1);
  }, 60_000);

  it('an action Defender fails ends Failed with its reason', async () => {
    defender().nextOutcome = 'TimeOut';
    const id = await deviceId('LAPTOP-ADELE');
    const started = await api<ActionBody>(world.app, 'POST', `/device-security/${id}/scan`, {
      key: world.key,
      tenantId,
      body: { type: 'quick' },
    });
    expect(started.status).toBe(202);
    expect(await waitForAction(started.body.data.id)).toBe('Failed');
    const { rows } = await world.app.pool.query<{ failure_reason: string }>(
      'select failure_reason from device_actions where id = $1',
      [started.body.data.id],
    );
    expect(rows[0].failure_reason).toBe(
      'Defender for Endpoint timed the action out: the machine did not complete it in time',
    );
    defender().nextOutcome = 'Succeeded';
  }, 60_000);

  it("Defender's 400 (an action already in progress, started in its portal) fails the action at once, posted once", async () => {
    const id = await deviceId('LAPTOP-ADELE'); // isolated by the test above: a release is allowed
    const [machine] = defender().machines;
    defender().actions.push({
      id: 'portal-release',
      type: 'Unisolate',
      scope: null,
      requestor: 'secops@fabrikam.com',
      requestorComment: 'released from the portal',
      status: 'InProgress',
      machineId: machine.id,
      computerDnsName: machine.computerDnsName,
      creationDateTimeUtc: new Date().toISOString(),
      lastUpdateDateTimeUtc: new Date().toISOString(),
      outcome: 'Succeeded',
    });
    const started = await api<ActionBody>(world.app, 'POST', `/devices/${id}/release`, {
      key: world.key,
      tenantId,
      body: { reason: 'Disk scanned clean' },
    });
    expect(started.status).toBe(202);
    expect(await waitForAction(started.body.data.id)).toBe('Failed');
    const { rows } = await world.app.pool.query<{ failure_reason: string }>(
      'select failure_reason from device_actions where id = $1',
      [started.body.data.id],
    );
    expect(rows[0].failure_reason).toMatch(
      /^Defender for Endpoint already has this action in progress on the machine \(Action is already in progress/,
    );
    expect(defenderCalls().filter((call) => call.startsWith('POST'))).toEqual([
      `POST /api/machines/${machine.id}/unisolate`,
    ]);
  }, 60_000);

  it('isolation changed in the Defender portal is read back by the next sync; an isolation of ours in flight is not overwritten', async () => {
    const id = await deviceId('LAPTOP-ADELE');
    const [machine] = defender().machines;
    const isolationStatus = async () =>
      (
        await api<{ state: string; isolationType: string | null; actionInProgress: boolean }>(
          world.app,
          'GET',
          `/devices/${id}/isolation-status`,
          { key: world.key, tenantId },
        )
      ).body.data;
    const portal = (type: 'Isolate' | 'Unisolate', at: Date, scope: string | null): FakeMachineAction => ({
      id: `portal-${type}-${at.getTime()}`,
      type,
      scope,
      requestor: 'secops@fabrikam.com',
      requestorComment: 'from the portal',
      status: 'Succeeded',
      machineId: machine.id,
      computerDnsName: machine.computerDnsName,
      creationDateTimeUtc: at.toISOString(),
      lastUpdateDateTimeUtc: at.toISOString(),
      outcome: 'Succeeded',
    });
    // The portal released the laptop (the test above left it in Defender's hands); make the state known.
    const sync = () => syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
    defender().actions.push(portal('Unisolate', new Date(Date.now() + 1_000), null));
    await sync();
    expect(await isolationStatus()).toMatchObject({ state: 'Not isolated', isolationType: null });

    // Isolated in the portal (Selective): the next sync reads it back, with its type.
    world.scenario.fake.clearRequests();
    defender().actions.push(portal('Isolate', new Date(Date.now() + 2_000), 'Selective'));
    const isolatedSync = await sync();
    expect(isolatedSync.summary).toMatchObject({ devicesIsolationChangedUpstream: 1 });
    expect(defenderCalls()).toContain(
      "GET /api/machineactions?$filter=type eq 'Isolate' or type eq 'Unisolate'",
    );
    expect(await isolationStatus()).toMatchObject({
      state: 'Isolated',
      isolationType: 'Selective isolation',
      actionInProgress: false,
    });

    // Our release is in flight (its job has not run yet): a sync that still sees the portal's isolation
    // leaves our row to the job, which ends it Released.
    await world.app.pool.query(
      `insert into device_actions (id, organization_id, environment, tenant_id, device_id, kind, status, reason,
         requested_by, requested_at, polls)
       select gen_random_uuid(), organization_id, environment, tenant_id, id, 'Release', 'Pending', 'held', 'test',
         now(), 0 from devices where id = $1`,
      [id],
    );
    await world.app.pool.query(
      `update devices set isolation_state = 'Not isolated', isolation_type = null where id = $1`,
      [id],
    );
    const whileInFlight = await sync();
    expect(whileInFlight.summary?.devicesIsolationChangedUpstream).toBeUndefined();
    expect(await isolationStatus()).toMatchObject({ state: 'Not isolated', actionInProgress: true });
    await world.app.pool.query(`delete from device_actions where device_id = $1 and reason = 'held'`, [id]);
    // Released in the portal at last: read back as not isolated.
    defender().actions.push(portal('Unisolate', new Date(Date.now() + 3_000), null));
    await world.app.pool.query(`update devices set isolation_state = 'Isolated' where id = $1`, [id]);
    expect((await sync()).summary).toMatchObject({ devicesIsolationChangedUpstream: 1 });
    expect(await isolationStatus()).toMatchObject({ state: 'Not isolated', isolationType: null });
  }, 120_000);

  it('Defender-only machines (servers) and Intune devices of other systems are not listed, but counted by the sync', async () => {
    fakeManagedDevices(world.scenario.consented).push(
      fakeManagedDevice({ deviceName: 'CHROMEBOOK-7', operatingSystem: 'ChromeOS' }),
    );
    defender().machines.push(fakeMachine({ computerDnsName: 'srv-sql-01', osPlatform: 'WindowsServer2022' }));
    const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as Awaited<
      ReturnType<typeof syncAndWait>
    > & { warnings: string[] };
    expect(sync.summary).toMatchObject({ devicesNotListedDefenderOnly: 1, devicesNotListedOtherSystems: 1 });
    expect(sync.warnings).toContainEqual(
      expect.stringMatching(
        /^devices: 1 Defender for Endpoint machine\(s\) not managed by Intune .* and 1 Intune device\(s\) of other systems/,
      ),
    );
    expect((await devices()).map((device) => device.deviceName).sort()).toEqual([
      'Adele iPhone',
      'LAPTOP-ADELE',
    ]);
  }, 60_000);

  it('a device without a Defender machine (Can be Onboarded) is refused by our rules before Defender is asked', async () => {
    const id = await deviceId('Adele iPhone');
    const refused = await api(world.app, 'POST', `/device-security/${id}/scan`, {
      key: world.key,
      tenantId,
      body: { type: 'quick' },
    });
    expect(refused.status).toBe(409);
    expect(defenderCalls()).toEqual([]);
  });
});
