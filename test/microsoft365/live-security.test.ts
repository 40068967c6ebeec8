import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { eventually } from '../helpers/eventually.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { api } from '../security/security-kit.js';
import { graphCalls, onboardAndSyncLive, startLiveWorld, stopLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * Security in the live environment, end to end on the Graph fake: a sync brings Graph's alerts in (then only
 * those changed since) and Secure Score's controls, a status move over REST reaches Graph first, Graph's
 * failures answer as every cloud failure does, and applying a recommendation says it is not available.
 */
let world: LiveWorld;
let tenantId: string;
let userExternalId: string;
/** The Graph requests of onboarding and the first sync. */
let firstSyncCalls: string[];

interface AlertBody {
  id: string;
  title: string;
  severity: string;
  status: string;
  source: string;
  category: string;
  affectedEntity: string;
  userId: string | null;
}

const alerts = () => fakeSecurity(world.scenario.consented).alerts;
const listAlerts = () =>
  api<AlertBody[]>(world.app, 'GET', '/alerts?sort=oldest', { key: world.key, tenantId });

beforeAll(async () => {
  world = await startLiveWorld({ jobs: true });
  const adele = world.scenario.consented.users.find((record) => record.user.displayName === 'Adele Vance')!;
  userExternalId = adele.user.id!;
  fakeSecurity(world.scenario.consented).alerts = [
    fakeAlert({
      id: 'da-1',
      title: 'Suspicious sign-in to a mailbox',
      severity: 'high',
      serviceSource: 'microsoftDefenderForOffice365',
      category: 'InitialAccess',
      createdDateTime: '2026-11-20T08:00:00Z',
      lastUpdateDateTime: '2026-11-20T08:00:00Z',
      evidence: [
        {
          '@odata.type': '#microsoft.graph.security.userEvidence',
          roles: [],
          userAccount: { azureAdUserId: userExternalId, userPrincipalName: adele.user.userPrincipalName },
        } as SecurityNamespace.UserEvidence,
      ],
    }),
    fakeAlert({
      id: 'da-2',
      title: 'Ransomware behavior detected',
      severity: 'medium',
      createdDateTime: '2026-11-21T08:00:00Z',
      lastUpdateDateTime: '2026-11-21T08:00:00Z',
    }),
  ];
  const profile = (id: string, maxScore: number) => ({ id, maxScore, deprecated: false, title: id });
  const security = fakeSecurity(world.scenario.consented);
  security.controlProfiles = [profile('AdminMFAV2', 10), profile('BlockLegacyAuthentication', 8)];
  security.secureScores = [
    {
      id: 'today',
      createdDateTime: new Date().toISOString(),
      controlScores: [
        { controlName: 'AdminMFAV2', score: 10 },
        { controlName: 'BlockLegacyAuthentication', score: 0 },
      ],
    },
  ];
  ({ tenantId } = await onboardAndSyncLive(world));
  firstSyncCalls = graphCalls(world);
});
afterAll(() => stopLiveWorld(world));
beforeEach(() => world.scenario.fake.clearRequests());

describe('security in the live environment (Microsoft 365)', () => {
  it("the first sync brings every Graph alert in, linked to the tenant's user", async () => {
    // The sync's steps read side by side: their calls come in any order.
    expect(firstSyncCalls.filter((call) => call.includes('/security/')).sort()).toEqual([
      'GET /v1.0/security/alerts_v2',
      'GET /v1.0/security/secureScoreControlProfiles',
      'GET /v1.0/security/secureScores?$top=1',
    ]);
    const list = await listAlerts();
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        title: 'Suspicious sign-in to a mailbox',
        severity: 'High',
        status: 'New',
        source: 'Defender for Office 365',
        category: 'Initial access',
        affectedEntity: 'adele.vance@fabrikam.com',
        userId: expect.any(String),
      }),
      expect.objectContaining({ title: 'Ransomware behavior detected', severity: 'Medium', userId: null }),
    ]);
  });

  it('a status move reaches Graph first (PATCH /security/alerts_v2/{id}), then our alert', async () => {
    const [first] = (await listAlerts()).body.data;
    const moved = await api<AlertBody>(world.app, 'PATCH', `/alerts/${first.id}`, {
      key: world.key,
      tenantId,
      body: { status: 'Dismissed' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.status).toBe('Dismissed');
    expect(graphCalls(world)).toEqual(['PATCH /v1.0/security/alerts_v2/da-1']);
    expect(alerts()[0]).toMatchObject({ status: 'resolved', classification: 'falsePositive' });
  });

  it('a later sync reads the alerts changed since the previous one, and takes their new status', async () => {
    alerts()[1].status = 'inProgress';
    alerts()[1].lastUpdateDateTime = new Date().toISOString();
    const sync = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(graphCalls(world)).toContainEqual(
      expect.stringMatching(
        /^GET \/v1\.0\/security\/alerts_v2\?\$filter=lastUpdateDateTime ge \d{4}-\d\d-\d\dT/,
      ),
    );
    expect((await listAlerts()).body.data.map((alert) => alert.status)).toEqual(['Dismissed', 'In Progress']);
  });

  it('an alert Graph no longer has answers 409; a throttled Graph 503 with Retry-After; nothing changes', async () => {
    const [, second] = (await listAlerts()).body.data;
    world.scenario.fake.inject({ url: '/security/alerts_v2/da-2', status: 429, retryAfterSeconds: 120 });
    const throttled = await api<AlertBody>(world.app, 'PATCH', `/alerts/${second.id}`, {
      key: world.key,
      tenantId,
      body: { status: 'Resolved' },
    });
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe('120');
    const kept = alerts().splice(1, 1);
    try {
      const missing = await api<AlertBody>(world.app, 'PATCH', `/alerts/${second.id}`, {
        key: world.key,
        tenantId,
        body: { status: 'Resolved' },
      });
      expect(missing.status).toBe(409);
      expect(missing.body.error).toMatchObject({ code: 'CONFLICT', details: { upstream: 'missing' } });
    } finally {
      alerts().push(...kept);
    }
    expect((await listAlerts()).body.data.map((alert) => alert.status)).toEqual(['Dismissed', 'In Progress']);
  });

  it('Secure Score feeds the recommendations; a dry-run apply records the tenant as not supported, naming what is missing', async () => {
    const list = await world.app.request<{ data: Array<{ id: string }> }>(
      'GET',
      `/api/security/recommendations?tenantIds=${tenantId}`,
      { key: world.key },
    );
    expect(list.status).toBe(200);
    // Met: mfa-admin-roles (AdminMFAV2 at its maximum); not met: block-legacy-authentication.
    expect(list.body.data.map((recommendation) => recommendation.id)).toEqual([
      'block-legacy-authentication',
    ]);
    type Operation = {
      id: string;
      status: string;
      results: Array<{ tenantId: string; outcome: string; reason: string | null }>;
    };
    const preview = await world.app.request<{ data: Operation }>(
      'POST',
      '/api/security/recommendations/block-legacy-authentication/apply',
      { key: world.key, body: { tenantIds: [tenantId], dryRun: true } },
    );
    expect(preview.status).toBe(202);
    // The dry run is a job: its result, once run, says why this tenant cannot be applied.
    const done = await eventually(
      async () => {
        const read = await world.app.request<{ data: Operation }>(
          'GET',
          `/api/security/recommendations/apply-operations/${preview.body.data.id}`,
          { key: world.key },
        );
        expect(read.body.data.results[0].outcome).not.toBe('pending');
        return read.body.data;
      },
      { timeout: 20_000, what: 'the dry run to finish' },
    );
    expect(done.results).toEqual([
      expect.objectContaining({
        tenantId,
        outcome: 'not supported',
        reason: expect.stringContaining('securityControlApply'),
      }),
    ]);
  });
});
