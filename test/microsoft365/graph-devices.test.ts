import { toAppError } from '../../src/core/errors.js';
import { graphTenantAreas } from '../../src/cloud/microsoft365/graph-areas.js';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { CloudDeviceActionRequest, CloudSecurityProvider } from '../../src/cloud/security.provider.js';
import { fakeDefender, fakeMachine, fakeRecommendation } from '../graph-fake/graph-fake-defender.js';
import { fakeManagedDevice, fakeManagedDevices } from '../graph-fake/graph-fake-devices.js';
import { cloudFailure, FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/**
 * Devices and their actions through the real Microsoft 365 client on the HTTPS fakes: Intune's managed devices
 * on Graph joined with Defender for Endpoint's machines by Entra ID device id, and Defender's machine actions
 * (isolate, release, scan) with the exact requests Microsoft documents, safe to repeat, and Defender's failures
 * as CloudErrors.
 */
let scenario: GraphScenario;
let security: CloudSecurityProvider;

const LAPTOP = '4b1c2d3e-0000-4000-8000-00000000d001';
const PHONE = '4b1c2d3e-0000-4000-8000-00000000d002';
const MAC = '4b1c2d3e-0000-4000-8000-00000000d003';
const USER = '6a1b2c3d-0000-4000-8000-00000000a001';

const defender = () => fakeDefender(scenario.consented);
const machineOf = (aadDeviceId: string) =>
  defender().machines.find((machine) => machine.aadDeviceId?.toLowerCase() === aadDeviceId)!;
const defenderCalls = () => scenario.fake.defenderCalls();
const request = (fields: Partial<CloudDeviceActionRequest> = {}): CloudDeviceActionRequest => ({
  requestId: 'act-1',
  kind: 'Isolate',
  type: 'Full',
  comment: 'Ransomware alert - Isolated until the disk is scanned',
  ...fields,
});

beforeAll(async () => {
  scenario = await startGraphScenario();
  fakeManagedDevices(scenario.consented).push(
    fakeManagedDevice({
      deviceName: 'LAPTOP-ADELE',
      azureADDeviceId: LAPTOP.toUpperCase(), // Intune and Defender may differ in case
      userId: USER,
      complianceState: 'inGracePeriod',
      complianceGracePeriodExpirationDateTime: '2026-12-01T00:00:00Z',
      lastSyncDateTime: '2026-11-26T07:40:00Z',
    }),
    fakeManagedDevice({
      deviceName: 'Adele iPhone',
      operatingSystem: 'iOS',
      osVersion: '18.1',
      managedDeviceOwnerType: 'personal',
      complianceState: 'noncompliant',
      azureADDeviceId: PHONE,
      manufacturer: 'Apple',
      model: 'iPhone 15',
      userId: USER,
    }),
    fakeManagedDevice({
      deviceName: 'MAC-DIEGO',
      operatingSystem: 'macOS',
      managedDeviceOwnerType: 'unknown',
      complianceState: 'unknown',
      azureADDeviceId: MAC,
    }),
    fakeManagedDevice({ deviceName: 'CHROMEBOOK-1', operatingSystem: 'ChromeOS' }),
  );
  defender().machines.push(
    fakeMachine({
      aadDeviceId: LAPTOP,
      riskScore: 'High',
      exposureLevel: 'High',
      lastSeen: '2026-11-26T08:05:00Z',
    }),
    fakeMachine({
      aadDeviceId: MAC,
      computerDnsName: 'mac-diego',
      riskScore: 'None',
      exposureLevel: 'Low',
      healthStatus: 'NoSensorData',
      onboardingStatus: 'InsufficientInfo',
    }),
    // A server onboarded to Defender but not enrolled in Intune, and a machine without Entra ID registration.
    fakeMachine({ aadDeviceId: '4b1c2d3e-0000-4000-8000-00000000d0ff', computerDnsName: 'srv-01' }),
    fakeMachine({ aadDeviceId: null, computerDnsName: 'legacy-01' }),
  );
  const [laptop, mac, server] = defender().machines;
  defender().recommendations.push(
    fakeRecommendation({ id: 'va-_-google-_-chrome', machineIds: [laptop.id, server.id] }),
    fakeRecommendation({
      id: 'scid-2090',
      recommendationName: 'Encrypt all BitLocker-supported drives',
      productName: 'windows',
      machineIds: [laptop.id],
    }),
    fakeRecommendation({
      id: 'va-_-apple-_-macos',
      recommendationName: 'Update macOS',
      machineIds: [mac.id],
    }),
    // Not in our catalog, and one no machine is exposed to any more: no machineReferences read for them.
    fakeRecommendation({
      id: 'va-_-zoom-_-zoom',
      recommendationName: 'Update Zoom',
      machineIds: [laptop.id],
    }),
    fakeRecommendation({ id: 'va-_-openssl-_-openssl', status: 'Exception', machineIds: [laptop.id] }),
  );
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const graph = transport.forTenant(
    { clientId: scenario.app.clientId, clientSecret: scenario.secret },
    scenario.consented.id,
  );
  security = graphTenantAreas(graph).security;
});
afterAll(() => scenario.fake.stop());
beforeEach(() => scenario.fake.clearRequests());

describe('managed devices (Intune on Graph, joined with Defender for Endpoint)', () => {
  it('reads every Intune page with $select, Defender once, and joins them by Entra ID device id', async () => {
    const pages = [];
    const listing = security.listDevices();
    for await (const page of listing) pages.push(page);
    // Left out and counted: the Chromebook (no such OS platform of ours), the server and the machine without
    // an Entra ID registration (no Intune device joins them).
    expect(listing.notListed).toEqual({ defenderOnly: 2, otherSystems: 1 });
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/deviceManagement/managedDevices?$select=id,deviceName,operatingSystem,osVersion,managedDeviceOwnerType,complianceState,complianceGracePeriodExpirationDateTime,enrolledDateTime,lastSyncDateTime,userId,azureADDeviceId,manufacturer,model',
      'GET /v1.0/deviceManagement/managedDevices?$select=id,deviceName,operatingSystem,osVersion,managedDeviceOwnerType,complianceState,complianceGracePeriodExpirationDateTime,enrolledDateTime,lastSyncDateTime,userId,azureADDeviceId,manufacturer,model&$skiptoken=2',
    ]);
    expect(defenderCalls()).toEqual([
      'GET /api/machines',
      'GET /api/machines?$skip=2&$top=2',
      "GET /api/machineactions?$filter=type eq 'Isolate' or type eq 'Unisolate'",
      'GET /api/recommendations',
      'GET /api/recommendations?$skip=2&$top=2',
      'GET /api/recommendations?$skip=4&$top=2',
      'GET /api/recommendations/va-_-google-_-chrome/machineReferences',
      'GET /api/recommendations/scid-2090/machineReferences',
      'GET /api/recommendations/va-_-apple-_-macos/machineReferences',
    ]);
    // Two tokens of the one app in the tenant, one per scope (MSAL's cache): Graph's, and Defender's with
    // only its Machine.* roles.
    expect(scenario.fake.tokenRequests().map((r) => r.tenantId)).toEqual([
      scenario.consented.id,
      scenario.consented.id,
    ]);
    const defenderTokens = [...scenario.fake.state.tokens.values()].filter((t) => t.audience === 'defender');
    expect(defenderTokens.map((t) => t.roles.sort())).toEqual([
      ['Machine.Isolate', 'Machine.Read.All', 'Machine.Scan', 'SecurityRecommendation.Read.All'],
    ]);

    const devices = pages.flat();
    expect(devices.map((device) => device.deviceName)).toEqual(['LAPTOP-ADELE', 'Adele iPhone', 'MAC-DIEGO']);
    expect(devices[0]).toEqual({
      externalId: LAPTOP,
      deviceName: 'LAPTOP-ADELE',
      osPlatform: 'Windows',
      osVersion: '10.0.22631.4460',
      ownership: 'Corporate',
      manufacturer: 'Dell Inc.',
      model: 'Latitude 7440',
      enrolledAt: '2026-03-02T09:15:00Z',
      complianceState: 'In Grace Period',
      complianceGraceExpiresAt: '2026-12-01T00:00:00Z',
      userExternalId: USER,
      riskLevel: 'High',
      exposureScore: 85,
      healthState: 'Active',
      onboardingStatus: 'Onboarded',
      lastSeenAt: '2026-11-26T08:05:00Z',
      openRecommendations: ['enable-bitlocker', 'update-chrome'],
      isolated: false,
      isolationActionId: null,
      isolationType: null,
    });
    // No Defender machine: nothing known of its risk, and it can be onboarded.
    expect(devices[1]).toMatchObject({
      externalId: PHONE,
      osPlatform: 'iOS',
      ownership: 'Personal',
      complianceState: 'Non-Compliant',
      complianceGraceExpiresAt: null,
      riskLevel: 'No data',
      exposureScore: 0,
      healthState: 'Inactive',
      onboardingStatus: 'Can be Onboarded',
      lastSeenAt: '2026-11-26T07:40:00Z',
      openRecommendations: [],
    });
    expect(devices[2]).toMatchObject({
      osPlatform: 'macOS',
      ownership: 'Personal',
      complianceState: 'Not Evaluated',
      riskLevel: 'Low',
      exposureScore: 15,
      healthState: 'Misconfigured',
      onboardingStatus: 'Pending',
      userExternalId: null,
      openRecommendations: ['update-os'],
    });
  });

  it("a machine's latest succeeded isolation says it is isolated; a later release that it is not", async () => {
    const laptop = machineOf(LAPTOP);
    const action = (type: string, status: 'Succeeded' | 'Failed', at: string) => ({
      id: `${type}-${at}`,
      type,
      scope: type === 'Isolate' ? 'Full' : null,
      requestor: 'portal',
      requestorComment: 'by hand',
      status,
      machineId: laptop.id,
      computerDnsName: laptop.computerDnsName,
      creationDateTimeUtc: at,
      lastUpdateDateTimeUtc: at,
      outcome: status,
    });
    defender().actions.push(
      action('Isolate', 'Succeeded', '2026-11-20T08:00:00Z'),
      action('Unisolate', 'Failed', '2026-11-21T08:00:00Z'),
    );
    const isolated = (await allPages(security.listDevices())).find((d) => d.externalId === LAPTOP);
    // The action that set it is named, so a sync can read a portal's isolation back (with its type).
    expect(isolated).toMatchObject({
      isolated: true,
      isolationActionId: 'Isolate-2026-11-20T08:00:00Z',
      isolationType: 'Full',
    });
    defender().actions.push(action('Unisolate', 'Succeeded', '2026-11-22T08:00:00Z'));
    const released = (await allPages(security.listDevices())).find((d) => d.externalId === LAPTOP);
    expect(released).toMatchObject({
      isolated: false,
      isolationActionId: 'Unisolate-2026-11-22T08:00:00Z',
      isolationType: null,
    });
    defender().actions.length = 0;
  });

  it('a tenant without Defender for Endpoint (AADSTS500011): Intune devices with no Defender data; actions refused', async () => {
    const bare = scenario.fake.state.addTenant({ displayName: 'No Defender' });
    bare.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
    fakeDefender(bare).provisioned = false;
    fakeManagedDevices(bare).push(fakeManagedDevice({ azureADDeviceId: LAPTOP }));
    const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
    const bareSecurity = graphTenantAreas(
      transport.forTenant({ clientId: scenario.app.clientId, clientSecret: scenario.secret }, bare.id),
    ).security;
    expect(await allPages(bareSecurity.listDevices())).toEqual([
      expect.objectContaining({
        externalId: LAPTOP,
        riskLevel: 'No data',
        onboardingStatus: 'Can be Onboarded',
        openRecommendations: [],
        isolated: false,
      }),
    ]);
    const error = await cloudFailure(bareSecurity.startDeviceAction(LAPTOP, request()));
    expect(error).toMatchObject({ kind: 'Refused', cloudCode: 'AADSTS500011' });
    expect(error.message).toContain(`Defender for Endpoint is not set up in tenant ${bare.id}`);
    expect(defenderCalls()).toEqual([]);
  });

  it('the capability table lists devices and device actions as available, with their permissions', () => {
    expect(MICROSOFT365_CAPABILITIES.filter((row) => row.capability.startsWith('device'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          capability: 'devices',
          available: true,
          permissions: [
            'DeviceManagementManagedDevices.Read.All',
            'Machine.Read.All',
            'SecurityRecommendation.Read.All',
          ],
        }),
        expect.objectContaining({
          capability: 'deviceActions',
          available: true,
          permissions: ['Machine.Read.All', 'Machine.Isolate', 'Machine.Scan'],
        }),
      ]),
    );
    expect(FULL_ROLES).toEqual(expect.arrayContaining(['Machine.Isolate', 'Machine.Scan']));
  });
});

describe('Defender for Endpoint machine actions', () => {
  afterEach(() => {
    defender().actions.length = 0;
    defender().nextOutcome = 'Succeeded';
  });

  it('isolates: finds the machine by Entra ID device id, looks for an earlier try, posts isolate once', async () => {
    const laptop = machineOf(LAPTOP);
    const started = await security.startDeviceAction(LAPTOP, request());
    expect(defenderCalls()).toEqual([
      `GET /api/machines?$filter=aadDeviceId eq '${LAPTOP}'`,
      `GET /api/machineactions?$filter=machineId eq '${laptop.id}'`,
      `POST /api/machines/${laptop.id}/isolate`,
    ]);
    const post = scenario.fake.requests.find((r) => r.method === 'POST');
    expect(post?.body).toEqual({
      Comment: `Ransomware alert - Isolated until the disk is scanned [msp-action act-1 device ${LAPTOP}]`,
      IsolationType: 'Full',
    });
    expect(started).toMatchObject({
      requestId: 'act-1',
      deviceExternalId: LAPTOP,
      kind: 'Isolate',
      type: 'Full',
      status: 'InProgress',
      completedAt: null,
      failureReason: null,
    });

    // A retried start (the job died after the POST) finds the action: nothing is posted twice.
    scenario.fake.clearRequests();
    const again = await security.startDeviceAction(LAPTOP, request());
    expect(again.externalId).toBe(started.externalId);
    expect(defenderCalls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(defender().actions).toHaveLength(1);

    // Followed by GET /api/machineactions/{id}: Pending → InProgress → Succeeded.
    scenario.fake.clearRequests();
    const statuses = [];
    for (let poll = 0; poll < 3; poll++)
      statuses.push((await security.getDeviceAction(started.externalId))?.status);
    expect(statuses).toEqual(['InProgress', 'Succeeded', 'Succeeded']);
    expect(defenderCalls()).toEqual(Array(3).fill(`GET /api/machineactions/${started.externalId}`));
  });

  it('releases with unisolate {Comment} and scans with runAntiVirusScan {Comment, ScanType}', async () => {
    const laptop = machineOf(LAPTOP);
    await security.startDeviceAction(LAPTOP, request({ requestId: 'rel-1', kind: 'Release', type: null }));
    const scan = await security.startDeviceAction(
      LAPTOP,
      request({ requestId: 'scan-1', kind: 'Scan', type: 'Quick', comment: '' }),
    );
    const posts = scenario.fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.url, r.body])).toEqual([
      [
        `/api/machines/${laptop.id}/unisolate`,
        {
          Comment: `Ransomware alert - Isolated until the disk is scanned [msp-action rel-1 device ${LAPTOP}]`,
        },
      ],
      [
        `/api/machines/${laptop.id}/runAntiVirusScan`,
        { Comment: `[msp-action scan-1 device ${LAPTOP}]`, ScanType: 'Quick' },
      ],
    ]);
    await security.getDeviceAction(scan.externalId);
    const done = await security.getDeviceAction(scan.externalId);
    expect(done).toMatchObject({ kind: 'Scan', type: 'Quick', status: 'Succeeded', threatsFound: null });
    expect(done?.durationSeconds).toEqual(expect.any(Number));
  });

  it('a POST whose answer is lost (504 after Defender took it) is not re-posted: the next start finds it', async () => {
    scenario.fake.inject({ service: 'defender', url: '/isolate', status: 504, lostAnswer: true });
    const lost = await cloudFailure(security.startDeviceAction(LAPTOP, request({ requestId: 'lost-1' })));
    expect(lost).toMatchObject({ kind: 'Transient' });
    const again = await security.startDeviceAction(LAPTOP, request({ requestId: 'lost-1' }));
    expect(again).toMatchObject({ requestId: 'lost-1', kind: 'Isolate', status: 'InProgress' });
    expect(defenderCalls().filter((call) => call.startsWith('POST'))).toEqual([
      `POST /api/machines/${machineOf(LAPTOP).id}/isolate`,
    ]);
    expect(defender().actions).toHaveLength(1);
  });

  it.each([
    ['Failed', 'Defender for Endpoint reports the action failed'],
    ['TimeOut', 'Defender for Endpoint timed the action out: the machine did not complete it in time'],
    ['Cancelled', 'Cancelled in Defender for Endpoint'],
  ] as const)('an action Defender ends %s is Failed with the reason', async (outcome, reason) => {
    defender().nextOutcome = outcome;
    const started = await security.startDeviceAction(LAPTOP, request({ requestId: `f-${outcome}` }));
    await security.getDeviceAction(started.externalId);
    const ended = await security.getDeviceAction(started.externalId);
    expect(ended).toMatchObject({ status: 'Failed', failureReason: reason });
    expect(ended?.completedAt).toEqual(expect.any(String));
  });

  it("Defender's 400 for an action already in progress is a clear refusal (409 in a request)", async () => {
    await security.startDeviceAction(LAPTOP, request({ requestId: 'first' }));
    const error = await cloudFailure(security.startDeviceAction(LAPTOP, request({ requestId: 'second' })));
    expect(error).toMatchObject({ kind: 'Refused', cloudCode: 'ActiveRequestAlreadyExists' });
    expect(error.message).toMatch(
      /^Defender for Endpoint already has this action in progress on the machine/,
    );
    expect(toAppError(error)).toMatchObject({ httpStatus: 409, code: 'CONFLICT' });
  });

  it('a device Defender has no machine for is refused, naming it; an unknown action is null', async () => {
    const error = await cloudFailure(security.startDeviceAction(PHONE, request()));
    expect(error).toMatchObject({ kind: 'Refused' });
    expect(error.message).toContain(`Device ${PHONE} is not onboarded to Defender for Endpoint`);
    expect(await security.getDeviceAction('no-such-action')).toBeNull();
  });

  it('a 429 with a short Retry-After is waited for within the call; a long one fails Throttled; 5xx and silence Transient', async () => {
    scenario.fake.inject({ service: 'defender', url: '/isolate', status: 429, retryAfterSeconds: 1 });
    const started = await security.startDeviceAction(LAPTOP, request({ requestId: 'throttled-1' }));
    expect(started.status).toBe('InProgress');
    const posts = scenario.fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.status, r.retryAttempt])).toEqual([
      [429, undefined],
      [201, '1'],
    ]);

    scenario.fake.inject({
      service: 'defender',
      url: '/machineactions/',
      status: 429,
      retryAfterSeconds: 60,
    });
    const throttled = await cloudFailure(security.getDeviceAction(started.externalId));
    expect(throttled).toMatchObject({ kind: 'Throttled', retryAfterSeconds: 60 });
    expect(toAppError(throttled)).toMatchObject({ httpStatus: 503 });

    scenario.fake.inject({ service: 'defender', url: '/api/machines', status: 503, times: 3 });
    expect(await cloudFailure(allPages(security.listDevices()))).toMatchObject({ kind: 'Transient' });

    // A Defender that does not answer within the deadline fails Transient too: a client whose deadline is 300 ms
    // (requestTimeoutMs, 5 s on the fake's other clients), so the test does not sit out 5 s of silence.
    const impatient = graphTenantAreas(
      new GraphTransport(
        microsoft365SettingsOf({ microsoft365: { ...scenario.settings, requestTimeoutMs: 300 } }),
      ).forTenant({ clientId: scenario.app.clientId, clientSecret: scenario.secret }, scenario.consented.id),
    ).security;
    scenario.fake.inject({ service: 'defender', url: '/machineactions/', status: 200, delayMs: 1_000 });
    expect(await cloudFailure(impatient.getDeviceAction(started.externalId))).toMatchObject({
      kind: 'Transient',
      message: expect.stringContaining('Defender for Endpoint could not be reached'),
    });
  });

  it('a tenant whose consent lacks Machine.Isolate is refused by Defender: Forbidden, permission missing', async () => {
    const limited = scenario.fake.state.addTenant({ displayName: 'Limited' });
    limited.consents.set(scenario.app.clientId, {
      roles: FULL_ROLES.filter((role) => role !== 'Machine.Isolate'),
    });
    fakeDefender(limited).machines.push(fakeMachine({ aadDeviceId: LAPTOP }));
    const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
    const limitedSecurity = graphTenantAreas(
      transport.forTenant({ clientId: scenario.app.clientId, clientSecret: scenario.secret }, limited.id),
    ).security;
    const error = await cloudFailure(limitedSecurity.startDeviceAction(LAPTOP, request()));
    expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
    expect(error.message).toContain('Machine.Isolate');
  });
});
