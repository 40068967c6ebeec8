import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { CloudError } from '../../src/cloud/cloud-error.js';
import { graphTenantAreas } from '../../src/cloud/microsoft365/graph-areas.js';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { graphSecurity } from '../../src/cloud/microsoft365/graph-security.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { CloudAlertStatus, CloudSecurityProvider } from '../../src/cloud/security.provider.js';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

let scenario: GraphScenario;
let security: CloudSecurityProvider;

const USER_ID = '6a1b2c3d-0000-4000-8000-00000000a001';
const DEVICE_ID = '9f8e7d6c-0000-4000-8000-00000000d001';

const endpointAlert = fakeAlert({
  id: 'da637551227677560813_-961444813',
  title: 'Suspicious execution of hidden file',
  description: 'A hidden file was launched by a process.',
  severity: 'high',
  category: 'DefenseEvasion',
  createdDateTime: '2026-11-20T08:15:00Z',
  evidence: [
    {
      '@odata.type': '#microsoft.graph.security.deviceEvidence',
      roles: [],
      verdict: 'suspicious',
      azureAdDeviceId: DEVICE_ID,
      deviceDnsName: 'ws-042.fabrikam.com',
      mdeDeviceId: '73e7e2de709dff64ef64b1d0c30e67fab63279db',
    } as SecurityNamespace.DeviceEvidence,
    {
      '@odata.type': '#microsoft.graph.security.userEvidence',
      roles: [],
      verdict: 'unknown',
      userAccount: {
        accountName: 'adele',
        azureAdUserId: USER_ID,
        userPrincipalName: 'adele.vance@fabrikam.com',
      },
    } as SecurityNamespace.UserEvidence,
  ],
});
const phishAlert = fakeAlert({
  id: 'fa-phish-1',
  title: 'Email messages containing malicious URL removed after delivery',
  severity: 'informational',
  serviceSource: 'microsoftDefenderForOffice365',
  category: 'InitialAccess',
  status: 'inProgress',
  createdDateTime: '2026-11-21T10:00:00Z',
  evidence: [
    {
      '@odata.type': '#microsoft.graph.security.mailboxEvidence',
      roles: ['destination'],
      primaryAddress: 'alex.wilber@fabrikam.com',
      userAccount: { azureAdUserId: null, userPrincipalName: null },
    } as SecurityNamespace.MailboxEvidence,
  ],
});
const dismissedAlert = fakeAlert({
  id: 'ad-travel-1',
  title: 'Atypical travel',
  severity: 'unknown',
  serviceSource: 'azureAdIdentityProtection',
  category: null,
  status: 'resolved',
  classification: 'falsePositive',
  determination: 'notMalicious',
  createdDateTime: '2026-11-22T12:30:00Z',
});

const sentinelAlert = fakeAlert({
  id: 'sn-1',
  title: 'Mass download by a single user',
  serviceSource: 'microsoftSentinel',
  createdDateTime: '2026-11-23T09:00:00Z',
});

beforeAll(async () => {
  scenario = await startGraphScenario();
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
  security = graphSecurity(transport.forTenant(credentials, scenario.consented.id));
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  fakeSecurity(scenario.consented).alerts = [endpointAlert, phishAlert, dismissedAlert, sentinelAlert].map(
    (alert) => structuredClone(alert),
  );
  scenario.fake.clearRequests();
});

const graphRequests = () =>
  scenario.fake.requests
    .filter((request) => request.service === 'graph')
    .map(({ method, url, body }) => (body === undefined ? { method, url } : { method, url, body }));

async function failure(run: () => Promise<unknown>): Promise<CloudError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CloudError);
  return error as CloudError;
}

describe('security alerts on Microsoft Graph', () => {
  it('lists GET /security/alerts_v2 page by page, mapped to our alert records', async () => {
    const pages: number[] = [];
    for await (const page of security.listAlerts()) pages.push(page.length);
    expect(pages).toEqual([2, 2]);
    expect(graphRequests()).toEqual([
      { method: 'GET', url: '/v1.0/security/alerts_v2' },
      { method: 'GET', url: '/v1.0/security/alerts_v2?$top=2&$skip=2' },
    ]);
    expect(await allPages(security.listAlerts())).toEqual([
      {
        externalId: 'da637551227677560813_-961444813',
        title: 'Suspicious execution of hidden file',
        description: 'A hidden file was launched by a process.',
        severity: 'High',
        status: 'New',
        category: 'Defense evasion',
        source: 'Defender for Endpoint',
        affectedEntity: 'ws-042.fabrikam.com',
        userExternalId: USER_ID,
        deviceExternalId: DEVICE_ID,
        createdAt: '2026-11-20T08:15:00Z',
        comments: [],
      },
      expect.objectContaining({
        externalId: 'fa-phish-1',
        severity: 'Informational',
        status: 'In Progress',
        category: 'Initial access',
        source: 'Defender for Office 365',
        affectedEntity: 'alex.wilber@fabrikam.com',
        userExternalId: null,
        deviceExternalId: null,
      }),
      expect.objectContaining({
        externalId: 'ad-travel-1',
        // Graph's "unknown" severity is the lowest we have; a resolved false positive is our Dismissed.
        severity: 'Informational',
        status: 'Dismissed',
        category: 'Uncategorized',
        source: 'Identity Protection',
        affectedEntity: '',
      }),
      // Graph names a source added to its evolvable enum only to a caller that asks for such members.
      expect.objectContaining({ externalId: 'sn-1', source: 'Microsoft Sentinel' }),
    ]);
  });

  it("carries the alert's comments (Graph's alertComment), the writer Graph names or Microsoft Defender", async () => {
    fakeSecurity(scenario.consented).alerts[0].comments = [
      {
        comment: 'Isolating it',
        createdByDisplayName: 'Megan Bowen',
        createdDateTime: '2026-11-20T09:00:00Z',
      },
      { comment: 'Automated investigation started', createdByDisplayName: null },
      { comment: '', createdByDisplayName: 'Megan Bowen', createdDateTime: '2026-11-20T09:05:00Z' },
    ];
    fakeSecurity(scenario.consented).alerts[0].lastUpdateDateTime = '2026-11-20T09:10:00Z';
    const [first] = await allPages(security.listAlerts());
    expect(first.comments).toEqual([
      { text: 'Isolating it', author: 'Megan Bowen', createdAt: '2026-11-20T09:00:00Z' },
      {
        text: 'Automated investigation started',
        author: 'Microsoft Defender',
        createdAt: '2026-11-20T09:10:00Z',
      },
    ]);
  });

  it('reads only the alerts changed since the previous sync (lastUpdateDateTime, an hour of overlap)', async () => {
    const alerts = fakeSecurity(scenario.consented).alerts;
    alerts.forEach((alert, index) => (alert.lastUpdateDateTime = `2026-11-2${index}T10:00:00Z`));
    alerts[3].lastUpdateDateTime = '2026-11-25T09:01:00Z';
    const changed = await allPages(security.listAlerts(new Date('2026-11-25T10:00:00Z')));
    expect(changed.map((alert) => alert.externalId)).toEqual(['sn-1']);
    await allPages(security.listAlerts(new Date('2026-11-21T10:59:00Z')));
    expect(graphRequests().map((request) => request.url)).toEqual([
      '/v1.0/security/alerts_v2?$filter=lastUpdateDateTime ge 2026-11-25T09:00:00.000Z',
      '/v1.0/security/alerts_v2?$filter=lastUpdateDateTime ge 2026-11-21T09:59:00.000Z',
      '/v1.0/security/alerts_v2?$filter=lastUpdateDateTime ge 2026-11-21T09:59:00.000Z&$top=2&$skip=2',
    ]);
    expect(await allPages(security.listAlerts(null))).toHaveLength(4);
  });

  it.each<[CloudAlertStatus, Record<string, string>]>([
    ['In Progress', { status: 'inProgress' }],
    ['Resolved', { status: 'resolved' }],
    ['Dismissed', { status: 'resolved', classification: 'falsePositive', determination: 'notMalicious' }],
    ['New', { status: 'new' }],
  ])('moves an alert to %s with PATCH /security/alerts_v2/{id}', async (status, body) => {
    const record = await security.updateAlert('da637551227677560813_-961444813', { status });
    expect(record).toMatchObject({ externalId: 'da637551227677560813_-961444813', status });
    expect(graphRequests()).toEqual([
      { method: 'PATCH', url: '/v1.0/security/alerts_v2/da637551227677560813_-961444813', body },
    ]);
    expect(fakeSecurity(scenario.consented).alerts[0]).toMatchObject(body);
  });

  it('resolving an alert once dismissed clears its false-positive classification, so it reads Resolved', async () => {
    expect(await security.updateAlert('ad-travel-1', { status: 'New' })).toMatchObject({ status: 'New' });
    const resolved = await security.updateAlert('ad-travel-1', { status: 'Resolved' });
    expect(resolved).toMatchObject({ status: 'Resolved' });
    expect(graphRequests().map((request) => request.body)).toEqual([
      { status: 'new' },
      { status: 'resolved' },
      { classification: 'unknown', determination: 'unknown' },
    ]);
    expect(fakeSecurity(scenario.consented).alerts[2]).toMatchObject({
      status: 'resolved',
      classification: 'unknown',
      resolvedDateTime: expect.any(String),
    });
  });

  it('answers null for an alert Graph does not have (404), and is idempotent', async () => {
    expect(await security.updateAlert('no-such-alert', { status: 'Resolved' })).toBeNull();
    await security.updateAlert('fa-phish-1', { status: 'In Progress' });
    expect(await security.updateAlert('fa-phish-1', { status: 'In Progress' })).toMatchObject({
      status: 'In Progress',
    });
  });

  it('a 429 with a long Retry-After is CloudError Throttled with it, listing or moving', async () => {
    scenario.fake.inject({ url: '/security/alerts_v2', status: 429, retryAfterSeconds: 120 });
    const listing = await failure(() => allPages(security.listAlerts()));
    expect(listing).toMatchObject({
      kind: 'Throttled',
      retryAfterSeconds: 120,
      cloudCode: 'TooManyRequests',
    });
    scenario.fake.inject({ url: '/security/alerts_v2/fa-phish-1', status: 429, retryAfterSeconds: 90 });
    const moving = await failure(() => security.updateAlert('fa-phish-1', { status: 'Resolved' }));
    expect(moving).toMatchObject({ kind: 'Throttled', retryAfterSeconds: 90 });
  });

  it('a tenant that did not grant SecurityAlert.ReadWrite.All answers Forbidden PERMISSION_MISSING', async () => {
    const roles = FULL_ROLES.filter((role) => !role.startsWith('SecurityAlert.'));
    scenario.consented.consents.set(scenario.app.clientId, { roles });
    try {
      const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
      const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
      const refused = graphSecurity(transport.forTenant(credentials, scenario.consented.id));
      const error = await failure(() => allPages(refused.listAlerts()));
      expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
    } finally {
      scenario.consented.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
    }
  });
});

describe('assignment and comments on Microsoft Graph', () => {
  it('assigns with the sign-in name, unassigns with null, and moves and assigns in one PATCH', async () => {
    const id = 'fa-phish-1';
    expect(await security.updateAlert(id, { assignedTo: 'megan@msp.example' })).toMatchObject({
      status: 'In Progress',
    });
    await security.updateAlert(id, { status: 'Resolved', assignedTo: 'lee@msp.example' });
    await security.updateAlert(id, { assignedTo: null });
    expect(graphRequests()).toEqual([
      { method: 'PATCH', url: `/v1.0/security/alerts_v2/${id}`, body: { assignedTo: 'megan@msp.example' } },
      {
        method: 'PATCH',
        url: `/v1.0/security/alerts_v2/${id}`,
        body: { status: 'resolved', assignedTo: 'lee@msp.example' },
      },
      { method: 'PATCH', url: `/v1.0/security/alerts_v2/${id}`, body: { assignedTo: null } },
    ]);
    expect(fakeSecurity(scenario.consented).alerts[1]).toMatchObject({
      status: 'resolved',
      assignedTo: null,
    });
  });

  it('posts a comment as an alertComment after reading the alert, and not twice when Graph already has it', async () => {
    const id = 'fa-phish-1';
    const note = { text: 'megan@msp.example: Mailbox rule removed', storedCopies: 0 };
    expect(await security.addAlertComment(id, note)).toBe(true);
    expect(graphRequests()).toEqual([
      { method: 'GET', url: `/v1.0/security/alerts_v2/${id}` },
      {
        method: 'POST',
        url: `/v1.0/security/alerts_v2/${id}/comments`,
        body: { '@odata.type': 'microsoft.graph.security.alertComment', comment: note.text },
      },
    ]);
    expect(fakeSecurity(scenario.consented).alerts[1].comments).toEqual([
      { comment: note.text, createdByDisplayName: expect.any(String), createdDateTime: expect.any(String) },
    ]);
    // A retry of that add (not stored on our side: storedCopies still 0) finds it upstream and posts nothing.
    scenario.fake.clearRequests();
    expect(await security.addAlertComment(id, note)).toBe(true);
    expect(graphRequests()).toEqual([{ method: 'GET', url: `/v1.0/security/alerts_v2/${id}` }]);
    // The same text added again on purpose (we hold the first copy) is posted.
    await security.addAlertComment(id, { ...note, storedCopies: 1 });
    expect(fakeSecurity(scenario.consented).alerts[1].comments).toHaveLength(2);
  });

  it('a comment on an alert Graph does not have answers false; a throttled POST is Throttled', async () => {
    expect(await security.addAlertComment('no-such-alert', { text: 'x', storedCopies: 0 })).toBe(false);
    scenario.fake.inject({
      url: '/security/alerts_v2/fa-phish-1/comments',
      status: 429,
      retryAfterSeconds: 60,
    });
    const error = await failure(() => security.addAlertComment('fa-phish-1', { text: 'y', storedCopies: 0 }));
    expect(error).toMatchObject({ kind: 'Throttled', retryAfterSeconds: 60 });
    expect(fakeSecurity(scenario.consented).alerts[1].comments).toEqual([]);
  });
});

describe('what the security area cannot do on Graph v1.0 yet', () => {
  it('is the area of a Microsoft 365 tenant, and the capability table says what it needs', async () => {
    const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
    const graph = transport.forTenant(
      { clientId: scenario.app.clientId, clientSecret: scenario.secret },
      scenario.consented.id,
    );
    expect(await allPages(graphTenantAreas(graph).security.listAlerts())).toHaveLength(4);
    expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'securityAlerts')).toMatchObject({
      available: true,
      permissions: ['SecurityAlert.ReadWrite.All'],
    });
    expect(FULL_ROLES).toContain('SecurityAlert.ReadWrite.All');
  });

  it.each([['listDlpPolicies', 'endpointDlp', () => allPages(security.listDlpPolicies())]] as const)(
    '%s answers Unsupported naming %s, with no Graph call',
    async (_method, capability, run) => {
      const error = await failure(run);
      expect(error).toMatchObject({ kind: 'Unsupported', capability, provider: 'microsoft365' });
      const row = MICROSOFT365_CAPABILITIES.find((candidate) => candidate.capability === capability);
      expect(row).toMatchObject({ available: false });
      expect(error.message).toContain(row?.reason ?? 'a reason');
      expect(graphRequests()).toEqual([]);
    },
  );
});
