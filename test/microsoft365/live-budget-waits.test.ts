import type { CloudError } from '../../src/cloud/cloud-error.js';
import type { CloudDeviceActionRequest } from '../../src/cloud/security.provider.js';
import { MovableClock } from '../../src/core/clock.js';
import { appErrorOfCloud } from '../../src/core/errors.js';
import { Environment } from '../../src/core/scope.js';
import { fakeDefender, fakeMachine } from '../graph-fake/graph-fake-defender.js';
import { fakeSecurity } from '../graph-fake/graph-fake-security.js';
import type { FakeTenant } from '../graph-fake/graph-fake-state.js';
import { eventually } from '../helpers/eventually.js';
import { FULL_ROLES } from '../helpers/graph-fake.js';
import { retryTaskNow } from '../helpers/job-queue.js';
import { onServer } from '../helpers/on-server.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import {
  onboardAndSyncLive,
  onboardLive,
  realmLiveWorld,
  stopLiveWorld,
  type LiveWorld,
} from './live-kit.js';

/**
 * Issue #30's throttling done-when, on the fakes (docs/microsoft365.md "Throttling"): an apply of security
 * controls over several tenants waits for each tenant's own call budget and reports the wait per tenant
 * (`cloudWaitMs`); Defender machine actions take from Defender's budget (a request finding none fails at once
 * with a Retry-After, i.e. 503; a job waits); a 429 from Graph during a sync is waited out by the job.
 * A server of the file's own (its budget settings), built in the worker's realm with a fake of the file's own
 * (realmLiveWorld); the budgets and Graph clients the tests drive are the server's (test/helpers/server-side-budget.ts).
 */
let world: LiveWorld<RealmApp>;
let fabrikamId: string;
let litwareId: string;
let litware: FakeTenant;
const GRAPH_WINDOW = { seconds: 20, limit: 4 };

/** Secure Score says block-legacy-authentication is not met, so it is an open recommendation. */
function legacyAuthOpen(tenant: FakeTenant): void {
  const security = fakeSecurity(tenant);
  security.controlProfiles = [
    { id: 'BlockLegacyAuthentication', controlCategory: 'Identity', maxScore: 8, deprecated: false },
  ];
  security.secureScores = [
    {
      id: `${tenant.id}_today`,
      createdDateTime: new Date().toISOString(),
      currentScore: 0,
      maxScore: 8,
      controlScores: [{ controlCategory: 'Identity', controlName: 'BlockLegacyAuthentication', score: 0 }],
    },
  ];
}

beforeAll(async () => {
  // maxWaitSeconds: jobs keep waiting on the test's clock rather than leave the retry to the queue's real time.
  world = await realmLiveWorld({
    jobs: true,
    cloudCallBudget: { limits: { graph: [GRAPH_WINDOW] }, maxWaitSeconds: 3600 },
  });
  litware = world.scenario.fake.state.addTenant({
    displayName: 'Litware',
    domains: ['litware.com', 'litware.onmicrosoft.com'],
  });
  litware.consents.set(world.scenario.app.clientId, { roles: FULL_ROLES });
  world.scenario.partner.customers.push({
    id: litware.id,
    tenantId: litware.id,
    displayName: litware.displayName,
  });
  legacyAuthOpen(world.scenario.consented);
  legacyAuthOpen(litware);
  ({ tenantId: fabrikamId } = await onboardAndSyncLive(world));
  const onboarded = await onboardLive(world, litware.id);
  expect(onboarded.body.errors).toBeUndefined();
  litwareId = onboarded.body.data!.onboardTenant.id;
  const sync = await syncAndWait(world.app, world.org, litwareId, 60_000, world.key);
  expect(sync).toMatchObject({ status: 'Completed', error: null });
}, 120_000);
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

type Operation = {
  status: string;
  results: Array<{ tenantId: string; outcome: string; cloudWaitMs: number }>;
};

describe('an apply of security controls over several tenants', () => {
  it("waits for each tenant's own call budget and reports the wait per tenant (cloudWaitMs)", async () => {
    world.app.clock.advance(GRAPH_WINDOW.seconds * 1000); // the syncs' windows have all ended
    // Another instance used Fabrikam's window up just now: Fabrikam's calls wait for it, Litware's do not.
    await onServer(
      world.app,
      'takeCloudCallBudget',
      world.scenario.app.clientId,
      world.scenario.consented.id,
      'graph',
      GRAPH_WINDOW.limit,
    );
    const started = await world.app.request<{ data: { id: string } }>(
      'POST',
      '/api/security/recommendations/block-legacy-authentication/apply',
      { key: world.key, body: { tenantIds: [fabrikamId, litwareId] } },
    );
    expect(started.status).toBe(202);
    const done = await eventually(
      async () => {
        const read = await world.app.request<{ data: Operation }>(
          'GET',
          `/api/security/recommendations/apply-operations/${started.body.data.id}`,
          { key: world.key },
        );
        expect(read.body.data.status).toBe('Succeeded');
        return read.body.data;
      },
      { timeout: 30_000, what: 'the apply over two tenants to finish' },
    );
    const byTenant = new Map(done.results.map((result) => [result.tenantId, result]));
    expect(byTenant.get(fabrikamId)).toMatchObject({ outcome: 'applied', cloudWaitMs: 20_000 });
    expect(byTenant.get(litwareId)).toMatchObject({ outcome: 'applied', cloudWaitMs: 0 });
    // Each tenant's security defaults were read, then switched on.
    expect(world.scenario.fake.graphCalls().sort()).toEqual([
      'GET /v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
      'GET /v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
      'PATCH /v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
      'PATCH /v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
    ]);
  }, 60_000);
});

describe("Defender machine actions take from Defender's budget (100 a minute, 1,500 an hour per tenant)", () => {
  const scan = (requestId: string): CloudDeviceActionRequest => ({
    requestId,
    kind: 'Scan',
    type: 'Quick',
    comment: 'Weekly scan',
  });

  it('a request finding no room fails at once with the Retry-After (503); a job waits for the minute', async () => {
    const machines = [fakeMachine(), fakeMachine(), fakeMachine()];
    fakeDefender(litware).machines.push(...machines);
    const clock = new MovableClock(new Date('2026-11-02T08:00:00Z'));
    const sleeps: number[] = [];
    const security = await onServer(
      world.app,
      'budgetedGraphSecurity',
      world.scenario.settings,
      { clientId: world.scenario.app.clientId, clientSecret: world.scenario.secret },
      litware.id,
      clock,
      {
        limits: { 'defender-machine-actions': [{ seconds: 60, limit: 1 }] },
        sleep: async (ms: number) => {
          sleeps.push(ms);
          clock.advance(ms);
        },
      },
    );
    const inRequest = async <T>(work: () => Promise<T>) =>
      (await onServer(
        world.app,
        'inOrganizationSession',
        { organizationId: world.org.organization.id, environment: Environment.LIVE },
        work,
      )) as T;
    const posts = () => world.scenario.fake.defenderCalls().filter((call) => call.startsWith('POST '));

    await inRequest(() => security.startDeviceAction(machines[0].aadDeviceId!, scan('scan-1')));
    const refused: unknown = await inRequest(() =>
      security.startDeviceAction(machines[1].aadDeviceId!, scan('scan-2')),
    ).catch((error: unknown) => error);
    // The server's CloudError (its realm's class): told by name.
    expect(refused).toMatchObject({ name: 'CloudError', kind: 'Throttled', retryAfterSeconds: 60 });
    // What the request answers: 503 SERVICE_UNAVAILABLE with Retry-After 60.
    expect(appErrorOfCloud(refused as CloudError)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retryAfterSeconds: 60 },
    });
    expect(posts()).toEqual([`POST /api/machines/${machines[0].id}/runAntiVirusScan`]);
    expect(sleeps).toEqual([]);

    // A job (no request session) waits for the minute on the clock, posts, and the wait is recorded.
    const waits = await onServer(world.app, 'withCloudWaits', () =>
      security.startDeviceAction(machines[2].aadDeviceId!, scan('scan-3')),
    );
    expect(sleeps).toEqual([60_000]);
    expect(waits).toEqual(new Map([[litware.id, 60_000]]));
    expect(posts()).toEqual([
      `POST /api/machines/${machines[0].id}/runAntiVirusScan`,
      `POST /api/machines/${machines[2].id}/runAntiVirusScan`,
    ]);
  });
});

describe('a 429 from Graph in a job', () => {
  it("is waited out (Graph's Retry-After, then the queue's retry) and the sync completes", async () => {
    world.scenario.fake.inject({ url: '/v1.0/users/delta', status: 429, retryAfterSeconds: 1, times: 3 });
    // Graph's client waits out two Retry-Afters (maxRetries 2 on the fake), the third 429 fails the attempt
    // Throttled and the queue holds the retry (src/core/jobs.ts: the Retry-After, at least graphile-worker's
    // e^1 s): made due once it waits there, the test asserting it did instead of sitting the wait out.
    const [sync, retry] = await Promise.all([
      syncAndWait(world.app, world.org, fabrikamId, 60_000, world.key),
      retryTaskNow(world.app.pool, 'tenant.sync', { organizationId: world.org.organization.id }),
    ]);
    expect(retry.attempts).toBe(1);
    expect(retry.secondsAhead).toBeGreaterThan(1);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    const delta = world.scenario.fake.requests.filter((request) =>
      request.url.startsWith('/v1.0/users/delta'),
    );
    expect(delta.map((request) => request.status).slice(0, 4)).toEqual([429, 429, 429, 200]);
  }, 60_000);
});
