import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { graphSecurity } from '../../src/cloud/microsoft365/graph-security.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { CloudSecurityProvider } from '../../src/cloud/security.provider.js';
import { fakeAlert, fakeSecurity } from '../graph-fake/graph-fake-security.js';
import { startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/** DLP alerts from Graph's security alerts (serviceSource dataLossPrevention), through the real client. */
let scenario: GraphScenario;
let security: CloudSecurityProvider;

const USER_ID = '6a1b2c3d-0000-4000-8000-00000000a001';
const DEVICE_ID = '9f8e7d6c-0000-4000-8000-00000000d001';

const usbCopy = fakeAlert({
  id: 'dl-usb-1',
  title: "DLP policy match for document 'Payroll 2026.xlsx' on a device",
  serviceSource: 'dataLossPrevention',
  detectionSource: 'microsoftDataLossPrevention',
  category: 'Exfiltration',
  alertPolicyId: '6f2d1c8e-0000-4000-8000-0000000000f1',
  firstActivityDateTime: '2026-11-24T14:02:00Z',
  createdDateTime: '2026-11-24T14:05:00Z',
  evidence: [
    {
      '@odata.type': '#microsoft.graph.security.userEvidence',
      roles: [],
      userAccount: { azureAdUserId: USER_ID, userPrincipalName: 'adele.vance@fabrikam.com' },
    } as SecurityNamespace.UserEvidence,
    {
      '@odata.type': '#microsoft.graph.security.deviceEvidence',
      roles: [],
      azureAdDeviceId: DEVICE_ID,
      deviceDnsName: 'ws-042.fabrikam.com',
    } as SecurityNamespace.DeviceEvidence,
    {
      '@odata.type': '#microsoft.graph.security.fileEvidence',
      roles: [],
      detectionStatus: 'blocked',
      fileDetails: { fileName: 'Payroll 2026.xlsx', filePath: 'C:\\Users\\adele\\Documents' },
    } as SecurityNamespace.FileEvidence,
  ],
});
/** A DLP alert with no policy id nor file evidence: what Graph does not say stays null or empty. */
const bare = fakeAlert({
  id: 'dl-bare-2',
  serviceSource: 'dataLossPrevention',
  createdDateTime: '2026-11-25T09:00:00Z',
  firstActivityDateTime: null,
  lastUpdateDateTime: '2026-11-25T09:00:00Z',
});
const endpointAlert = fakeAlert({ id: 'mde-1' });

beforeAll(async () => {
  scenario = await startGraphScenario();
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
  security = graphSecurity(transport.forTenant(credentials, scenario.consented.id));
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  fakeSecurity(scenario.consented).alerts = [usbCopy, endpointAlert, bare].map((alert) =>
    structuredClone(alert),
  );
  scenario.fake.clearRequests();
});

describe('DLP alerts on Microsoft Graph', () => {
  it('lists the alerts whose serviceSource is dataLossPrevention, mapped to DLP alert records', async () => {
    expect(await allPages(security.listDlpAlerts())).toEqual([
      {
        externalId: 'dl-usb-1',
        policyExternalId: '6f2d1c8e-0000-4000-8000-0000000000f1',
        activity: null,
        deviceExternalId: DEVICE_ID,
        userExternalId: USER_ID,
        userPrincipalName: 'adele.vance@fabrikam.com',
        fileName: 'Payroll 2026.xlsx',
        actionTaken: 'Blocked',
        occurredAt: '2026-11-24T14:02:00Z',
      },
      {
        externalId: 'dl-bare-2',
        policyExternalId: null,
        activity: null,
        deviceExternalId: null,
        userExternalId: null,
        userPrincipalName: '',
        fileName: '',
        actionTaken: null,
        occurredAt: '2026-11-25T09:00:00Z',
      },
    ]);
    expect(scenario.fake.graphCalls()).toEqual([
      "GET /v1.0/security/alerts_v2?$filter=serviceSource eq 'dataLossPrevention'",
    ]);
  });

  it('reads only those changed since the previous sync, less the hour of overlap', async () => {
    const changed = await allPages(security.listDlpAlerts(new Date('2026-11-25T09:30:00Z')));
    expect(changed.map((alert) => alert.externalId)).toEqual(['dl-bare-2']);
    expect(scenario.fake.graphCalls()).toEqual([
      "GET /v1.0/security/alerts_v2?$filter=serviceSource eq 'dataLossPrevention' and lastUpdateDateTime ge 2026-11-25T08:30:00.000Z",
    ]);
  });

  it.each([
    ['detected', 'Audited'],
    ['prevented', 'Blocked'],
    ['unknownFutureValue', null],
  ] as const)('file evidence detectionStatus %s is the action taken %s', async (status, action) => {
    const [alert] = fakeSecurity(scenario.consented).alerts;
    (alert.evidence![2] as SecurityNamespace.FileEvidence).detectionStatus = status;
    const [record] = await allPages(security.listDlpAlerts());
    expect(record.actionTaken).toBe(action);
  });

  it('DLP policies stay unsupported: the capability row says Graph has no API, with no Graph call', async () => {
    await expect(allPages(security.listDlpPolicies())).rejects.toMatchObject({
      kind: 'Unsupported',
      capability: 'endpointDlp',
    });
    expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'endpointDlp')).toMatchObject({
      available: false,
      reason: expect.stringContaining('Microsoft Purview'),
    });
    expect(MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'dlpAlerts')).toMatchObject({
      available: true,
      permissions: ['SecurityAlert.ReadWrite.All'],
    });
    expect(scenario.fake.graphCalls()).toEqual([]);
  });
});
