import { fakeDefender, fakeMachine } from '../graph-fake/graph-fake-defender.js';
import { fakeManagedDevice, fakeManagedDevices } from '../graph-fake/graph-fake-devices.js';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { securityCloud } from '../security/security-kit.js';
import {
  startEnvironmentMatrix,
  type EnvironmentMatrix,
  type MatrixEnvironment,
} from './environment-matrix.js';

/**
 * The security, posture and device areas, the same requests (REST and GraphQL) in both environments (issue
 * #30 item 8, "the shared matrix"): the sandbox acts on the simulated cloud and makes no Graph request; the
 * live environment makes exactly the Graph requests listed (reads come from our rows, writes reach Graph).
 */
let matrix: EnvironmentMatrix;
const LAPTOP = '6d3e4f50-0000-4000-8000-00000000e001';

beforeAll(async () => {
  matrix = await startEnvironmentMatrix();
  const tenant = matrix.scenario.consented;
  fakeSecurity(tenant).alerts = [fakeAlert({ id: 'da-m1', title: 'Suspicious inbox rule', status: 'new' })];
  fakeSecurity(tenant).controlProfiles = [
    { id: 'AdminMFAV2', controlCategory: 'Identity', maxScore: 10, deprecated: false },
    { id: 'BlockLegacyAuthentication', controlCategory: 'Identity', maxScore: 8, deprecated: false },
  ];
  fakeSecurity(tenant).secureScores = [
    {
      id: `${tenant.id}_today`,
      createdDateTime: new Date().toISOString(),
      currentScore: 10,
      maxScore: 18,
      controlScores: [
        { controlCategory: 'Identity', controlName: 'AdminMFAV2', score: 10 },
        { controlCategory: 'Identity', controlName: 'BlockLegacyAuthentication', score: 0 },
      ],
    },
  ];
  fakeManagedDevices(tenant).push(
    fakeManagedDevice({ deviceName: 'LAPTOP-MATRIX', azureADDeviceId: LAPTOP }),
  );
  fakeDefender(tenant).machines.push(fakeMachine({ aadDeviceId: LAPTOP }));
  // The sandbox's generated alerts are all looked at already: its cloud raises a new one.
  const sandbox = matrix.environments.find((env) => env.name === 'sandbox')!;
  const { rows } = await matrix.app.pool.query<{ external_id: string }>(
    'select external_id from tenants where id = $1',
    [sandbox.tenantId],
  );
  await securityCloud(matrix.app).raiseAlert(rows[0].external_id, { title: 'Suspicious inbox rule' });
  for (const env of matrix.environments) {
    const synced = await env.sync();
    if (synced.status !== 'Completed') throw new Error(`the ${env.name} sync failed: ${synced.error}`);
  }
}, 120_000);
afterAll(() => matrix?.stop());

describe.each(['sandbox', 'live'] as const)('security, posture and devices in the %s environment', (name) => {
  let env: MatrixEnvironment;
  beforeAll(() => {
    env = matrix.environments.find((candidate) => candidate.name === name)!;
  });
  beforeEach(() => env.clear());

  const security = <T>(method: string, path: string, body?: unknown) =>
    matrix.app.request<Envelope<T>>(method, `/api/security${path}`, {
      key: env.key,
      body,
      headers: { 'X-Tenant-Id': env.tenantId },
    });
  const expectGraphCalls = (externalId: string, live: string[]) =>
    expect(env.graphCalls(externalId)).toEqual(env.name === 'sandbox' ? [] : live);

  /** A New alert of the tenant: its id and the cloud's id for it. */
  async function newAlert(): Promise<{ id: string; externalId: string }> {
    const { rows } = await matrix.app.pool.query<{ id: string; external_id: string }>(
      `select id, external_id from security_alerts where tenant_id = $1 and status = 'New'
        order by created_at, id limit 1`,
      [env.tenantId],
    );
    expect(rows).toHaveLength(1);
    return { id: rows[0].id, externalId: rows[0].external_id };
  }

  it('lists alerts, devices, recommendations and the secure score from our rows: no cloud call', async () => {
    const alerts = await security<unknown[]>('GET', '/alerts');
    expect(alerts.status).toBe(200);
    expect(alerts.body.data.length).toBeGreaterThan(0);
    const devices = await security<Array<{ deviceName: string }>>('GET', '/device-security');
    expect(devices.status).toBe(200);
    if (env.name === 'live')
      expect(devices.body.data.map((device) => device.deviceName)).toEqual(['LAPTOP-MATRIX']);
    else expect(devices.body.data.length).toBeGreaterThan(0);
    const recommendations = await matrix.app.request<Envelope<Array<{ id: string }>>>(
      'GET',
      `/api/security/recommendations?tenantIds=${env.tenantId}`,
      { key: env.key },
    );
    expect(recommendations.status).toBe(200);
    if (env.name === 'live')
      expect(recommendations.body.data.map((item) => item.id)).toEqual(['block-legacy-authentication']);
    const score = await matrix.app.graphql<{
      secureScores: { items: Array<{ source: string; score: number; maxScore: number }> };
    }>(env.key, 'query ($t: [UUID!]) { secureScores(tenantIds: $t) { items { source score maxScore } } }', {
      t: [env.tenantId],
    });
    expect(score.body.errors).toBeUndefined();
    const [item] = score.body.data!.secureScores.items;
    if (env.name === 'live') expect(item).toEqual({ source: 'MICROSOFT365', score: 10, maxScore: 18 });
    else expect(item.source).toBe('RECOMMENDATIONS');
    expect(env.graphCalls()).toEqual([]);
  });

  it('moves an alert over REST and comments on it over GraphQL: both reach the cloud first', async () => {
    const alert = await newAlert();
    const moved = await security<{ status: string }>('PATCH', `/alerts/${alert.id}`, {
      status: 'In Progress',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.status).toBe('In Progress');
    expectGraphCalls(alert.externalId, ['PATCH /v1.0/security/alerts_v2/{id}']);
    env.clear();
    const commented = await matrix.app.graphql<{ addSecurityAlertComment: { text: string } }>(
      env.key,
      'mutation ($t: UUID!, $id: UUID!) { addSecurityAlertComment(tenantId: $t, id: $id, input: { text: "Checked the rule" }) { text } }',
      { t: env.tenantId, id: alert.id },
    );
    expect(commented.body.errors).toBeUndefined();
    expect(commented.body.data?.addSecurityAlertComment.text).toBe('Checked the rule');
    expectGraphCalls(alert.externalId, [
      'GET /v1.0/security/alerts_v2/{id}',
      'POST /v1.0/security/alerts_v2/{id}/comments',
    ]);
    if (env.name === 'live')
      expect(fakeSecurity(matrix.scenario.consented).alerts[0]).toMatchObject({ status: 'inProgress' });
  });

  it('a sync brings nothing new: no alert, device or recommendation changes', async () => {
    const sync = await env.sync();
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary).toMatchObject({
      alertsCreated: 0,
      alertsUpdated: 0,
      devicesCreated: 0,
      recommendationsChanged: 0,
    });
  });
});

describe('an isolation Defender fails (live)', () => {
  it("posts Defender's isolate with the IsolationType asked, and the job ends Failed with Defender's reason", async () => {
    const live = matrix.environments.find((env) => env.name === 'live')!;
    const defender = fakeDefender(matrix.scenario.consented);
    defender.nextOutcome = 'Failed';
    matrix.scenario.fake.clearRequests();
    const { rows } = await matrix.app.pool.query<{ id: string }>(
      'select id from devices where tenant_id = $1 and external_id = $2',
      [live.tenantId, LAPTOP],
    );
    const started = await matrix.app.request<Envelope<{ id: string; status: string }>>(
      'POST',
      `/api/security/devices/${rows[0].id}/isolate`,
      {
        key: live.key,
        headers: { 'X-Tenant-Id': live.tenantId },
        body: { type: 'Full isolation', reason: 'Ransomware behaviour', notes: 'Ticket 4712' },
      },
    );
    expect(started.status).toBe(202);
    const ended = await eventually(
      async () => {
        const { rows: actions } = await matrix.app.pool.query<{ status: string; failure_reason: string }>(
          'select status, failure_reason from device_actions where id = $1',
          [started.body.data.id],
        );
        expect(['Succeeded', 'Failed']).toContain(actions[0].status);
        return actions[0];
      },
      { timeout: 45_000, what: 'the isolation to end' },
    );
    expect(ended).toEqual({
      status: 'Failed',
      failure_reason: 'Defender for Endpoint reports the action failed',
    });
    const post = matrix.scenario.fake.requests.find((request) => request.method === 'POST');
    expect(post).toMatchObject({
      service: 'defender',
      url: `/api/machines/${defender.machines[0].id}/isolate`,
      body: { IsolationType: 'Full' },
    });
    defender.nextOutcome = 'Succeeded';
  }, 60_000);
});
