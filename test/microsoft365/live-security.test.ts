import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { createMember } from '../factories/shared.js';
import { fakePolicies } from '../graph-fake/graph-fake-policies.js';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { eventually } from '../helpers/eventually.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
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
 * Security in the live environment, end to end on the Graph fake: a sync brings Graph's alerts in (then only
 * those changed since) and Secure Score's controls, a status move over REST reaches Graph first, Graph's
 * failures answer as every cloud failure does, and applying a recommendation says it is not available.
 */
let world: LiveWorld<SharedApp>;
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

type Operation = {
  id: string;
  status: string;
  results: Array<{ tenantId: string; outcome: string; reason: string | null }>;
};

/** Applies (or previews) a recommendation in the tenant over REST and waits for every outcome. */
async function applyAndWait(recommendation: string, dryRun: boolean): Promise<Operation> {
  const started = await world.app.request<{ data: Operation }>(
    'POST',
    `/api/security/recommendations/${recommendation}/apply`,
    { key: world.key, body: { tenantIds: [tenantId], dryRun } },
  );
  expect(started.status).toBe(202);
  return eventually(
    async () => {
      const read = await world.app.request<{ data: Operation }>(
        'GET',
        `/api/security/recommendations/apply-operations/${started.body.data.id}`,
        { key: world.key },
      );
      expect(read.body.data.results[0].outcome).not.toBe('pending');
      expect(['Succeeded', 'Partially Failed', 'Failed']).toContain(read.body.data.status);
      return read.body.data;
    },
    { timeout: 20_000, what: `the ${recommendation} apply to finish` },
  );
}

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
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
      "GET /v1.0/security/alerts_v2?$filter=serviceSource eq 'dataLossPrevention'",
      'GET /v1.0/security/secureScoreControlProfiles',
      'GET /v1.0/security/secureScores?$top=1',
      // The score's own read (secure-score step): every day Graph keeps, the first time.
      'GET /v1.0/security/secureScores?$top=90',
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

  it("an assignment reaches Graph as the member's sign-in name (assignedTo), an unassignment as null", async () => {
    const [, second] = (await listAlerts()).body.data;
    const member = await createMember(world.app, world.org.organization.id);
    const assigned = await api<AlertBody>(world.app, 'PATCH', `/alerts/${second.id}`, {
      key: world.key,
      tenantId,
      body: { assignedToId: member.id, status: 'In Progress' },
    });
    expect(assigned.status).toBe(200);
    expect(world.scenario.fake.requests.filter((request) => request.service === 'graph')).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        url: '/v1.0/security/alerts_v2/da-2',
        body: { status: 'inProgress', assignedTo: member.email },
      }),
    ]);
    expect(alerts()[1]).toMatchObject({ status: 'inProgress', assignedTo: member.email });
    // The same assignee again changes nothing, upstream included.
    world.scenario.fake.clearRequests();
    await api(world.app, 'PATCH', `/alerts/${second.id}`, {
      key: world.key,
      tenantId,
      body: { assignedToId: member.id },
    });
    expect(graphCalls(world)).toEqual([]);
    const unassigned = await api<AlertBody>(world.app, 'PATCH', `/alerts/${second.id}`, {
      key: world.key,
      tenantId,
      body: { assignedToId: null },
    });
    expect(unassigned.status).toBe(200);
    expect(alerts()[1]).toMatchObject({ status: 'inProgress', assignedTo: null });
  });

  it('a comment reaches Graph (POST …/comments) before our row; a retry finding it there posts nothing', async () => {
    const [first] = (await listAlerts()).body.data;
    const comments = `/alerts/${first.id}/comments`;
    type Note = { id: string; text: string; authorName: string };
    const added = await api<Note>(world.app, 'POST', comments, {
      key: world.key,
      tenantId,
      body: { text: 'Reset the password' },
    });
    expect(added.status).toBe(201);
    const upstreamText = `${added.body.data.authorName}: Reset the password`;
    expect(world.scenario.fake.requests.filter((request) => request.service === 'graph')).toEqual([
      expect.objectContaining({ method: 'GET', url: '/v1.0/security/alerts_v2/da-1' }),
      expect.objectContaining({
        method: 'POST',
        url: '/v1.0/security/alerts_v2/da-1/comments',
        body: { '@odata.type': 'microsoft.graph.security.alertComment', comment: upstreamText },
      }),
    ]);
    // An earlier try of the next note reached Graph, but its answer was lost before our row was written.
    const retried = `${added.body.data.authorName}: Revoked the sessions`;
    alerts()[0].comments!.push({
      comment: retried,
      createdByDisplayName: 'app',
      createdDateTime: new Date().toISOString(),
    });
    world.scenario.fake.clearRequests();
    world.app.clock.advance(60_000);
    // Through GraphQL this time: the same service.
    const again = await world.app.graphql<{ addSecurityAlertComment: { text: string } }>(
      world.key,
      'mutation ($t: UUID!, $id: UUID!) { addSecurityAlertComment(tenantId: $t, id: $id, input: { text: "Revoked the sessions" }) { text } }',
      { t: tenantId, id: first.id },
    );
    expect(again.body.errors).toBeUndefined();
    expect(graphCalls(world)).toEqual(['GET /v1.0/security/alerts_v2/da-1']);
    expect(alerts()[0].comments!.map((comment) => comment.comment)).toEqual([upstreamText, retried]);
    const listed = await api<Note[]>(world.app, 'GET', comments, { key: world.key, tenantId });
    expect(listed.body.data.map((note) => note.text)).toEqual(['Reset the password', 'Revoked the sessions']);
  });

  it('a throttled comment answers 503 with Retry-After and stores nothing', async () => {
    const [first] = (await listAlerts()).body.data;
    world.scenario.fake.inject({
      url: '/security/alerts_v2/da-1/comments',
      status: 429,
      retryAfterSeconds: 90,
    });
    const throttled = await api(world.app, 'POST', `/alerts/${first.id}/comments`, {
      key: world.key,
      tenantId,
      body: { text: 'Not now' },
    });
    expect(throttled.status).toBe(503);
    expect(throttled.headers.get('retry-after')).toBe('90');
    const listed = await api<Array<{ text: string }>>(world.app, 'GET', `/alerts/${first.id}/comments`, {
      key: world.key,
      tenantId,
    });
    expect(listed.body.data.map((note) => note.text)).not.toContain('Not now');
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

  it('Secure Score feeds the recommendations; a dry run previews security defaults, the apply enables them', async () => {
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
    const preview = await applyAndWait('block-legacy-authentication', true);
    expect(preview.results).toEqual([expect.objectContaining({ tenantId, outcome: 'would apply' })]);
    expect(graphCalls(world).filter((call) => !call.includes('/security/'))).toEqual([
      'GET /v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
    ]);
    expect(fakePolicies(world.scenario.consented).securityDefaults).toBe(false);
    world.scenario.fake.clearRequests();
    const applied = await applyAndWait('block-legacy-authentication', false);
    expect(applied).toMatchObject({
      status: 'Succeeded',
      results: [expect.objectContaining({ outcome: 'applied' })],
    });
    expect(world.scenario.fake.requests.filter((request) => request.url.includes('/policies/'))).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: '/v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
      }),
      expect.objectContaining({
        method: 'PATCH',
        url: '/v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
        body: { isEnabled: true },
      }),
    ]);
    expect(fakePolicies(world.scenario.consented).securityDefaults).toBe(true);
  });

  it('applying a control Graph cannot change records the tenant as not supported, naming why', async () => {
    world.scenario.fake.clearRequests();
    const done = await applyAndWait('safe-links', true);
    expect(done.results).toEqual([
      expect.objectContaining({
        tenantId,
        outcome: 'not supported',
        reason: expect.stringContaining('securityControlApplyOther'),
      }),
    ]);
    expect(graphCalls(world).filter((call) => call.includes('/policies'))).toEqual([]);
  });

  it('a DLP alert of Graph comes in as an endpoint DLP alert; the policies are noted as not available', async () => {
    alerts().push(
      fakeAlert({
        id: 'dl-1',
        title: "DLP policy match for document 'Payroll.xlsx'",
        serviceSource: 'dataLossPrevention',
        alertPolicyId: 'policy-we-cannot-list',
        firstActivityDateTime: '2026-11-24T14:02:00Z',
        lastUpdateDateTime: new Date().toISOString(),
        evidence: [
          {
            '@odata.type': '#microsoft.graph.security.userEvidence',
            roles: [],
            userAccount: { azureAdUserId: userExternalId, userPrincipalName: 'adele.vance@fabrikam.com' },
          } as SecurityNamespace.UserEvidence,
          {
            '@odata.type': '#microsoft.graph.security.fileEvidence',
            roles: [],
            detectionStatus: 'blocked',
            fileDetails: { fileName: 'Payroll.xlsx' },
          } as SecurityNamespace.FileEvidence,
        ],
      }),
    );
    const sync = (await syncAndWait(world.app, world.org, tenantId, 30_000, world.key)) as SyncBody & {
      warnings: string[];
    };
    expect(sync).toMatchObject({
      status: 'Completed',
      error: null,
      summary: expect.objectContaining({ dlpAlertsCreated: 1 }),
    });
    expect(sync.warnings).toContainEqual(
      expect.stringMatching(/^endpoint-dlp: policies not available on microsoft365 \(.*Purview/),
    );
    expect(graphCalls(world)).toContainEqual(
      expect.stringMatching(
        /^GET \/v1\.0\/security\/alerts_v2\?\$filter=serviceSource eq 'dataLossPrevention' and lastUpdateDateTime ge /,
      ),
    );
    const list = await api<Array<Record<string, unknown>>>(world.app, 'GET', '/endpoint-dlp/alerts', {
      key: world.key,
      tenantId,
    });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        policyId: null,
        policyName: null,
        activity: null,
        userId: expect.any(String),
        userPrincipalName: 'adele.vance@fabrikam.com',
        fileName: 'Payroll.xlsx',
        actionTaken: 'Blocked',
        occurredAt: '2026-11-24T14:02:00.000Z',
      }),
    ]);
    const graph = await world.app.graphql<{
      endpointDlpAlerts: { items: Array<{ fileName: string; activity: string | null }> };
    }>(world.key, 'query ($t: UUID!) { endpointDlpAlerts(tenantId: $t) { items { fileName activity } } }', {
      t: tenantId,
    });
    expect(graph.body.data?.endpointDlpAlerts.items).toEqual([{ fileName: 'Payroll.xlsx', activity: null }]);
  });
});
