import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api, eventsOf, fieldsOf, seedSecurity, waitForAction } from './security-kit.js';
import type { DataOf } from '../helpers/api-types.js';

type DeviceBody = DataOf<'getSecurityDevice'>;

type ActionBody = DataOf<'isolateDevice'>;

type IsolationStatusBody = DataOf<'deviceIsolationStatus'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ jobs: true, other: true })));
afterAll(() => app.stop());

/** Five devices across platforms, risks and states, plus an alert on the first. */
async function deviceTenant(): Promise<{ tenant: Tenant; ids: string[]; alertId: string }> {
  const tenant = await createTenant(app, org.scope);
  const seeded = await seedSecurity(app, org.scope, tenant, {
    devices: [
      {
        deviceName: 'LAPTOP-ANN',
        osPlatform: 'Windows',
        riskLevel: 'High',
        exposureScore: 80,
        openRecommendations: ['update-os', 'enable-bitlocker'],
      },
      {
        deviceName: 'MAC-BOB',
        osPlatform: 'macOS',
        riskLevel: 'Medium',
        exposureScore: 55,
        openRecommendations: ['update-os'],
      },
      {
        deviceName: 'PHONE-CY',
        osPlatform: 'iOS',
        riskLevel: 'Low',
        exposureScore: 10,
        healthState: 'Inactive',
        openRecommendations: ['require-passcode'],
      },
      {
        deviceName: 'SRV-LINUX',
        osPlatform: 'Linux',
        riskLevel: 'No data',
        exposureScore: 0,
        onboardingStatus: 'Unsupported',
      },
      {
        deviceName: 'PIXEL-DEE',
        osPlatform: 'Android',
        riskLevel: 'No data',
        exposureScore: 0,
        onboardingStatus: 'Pending',
      },
    ],
    alerts: [],
  });
  const { alertIds } = await seedSecurity(app, org.scope, tenant, {
    alerts: [
      {
        title: 'Malware detected',
        severity: 'High',
        deviceExternalId: await externalIdOf(seeded.deviceIds[0]),
      },
    ],
  });
  return { tenant, ids: seeded.deviceIds, alertId: alertIds[0] };
}

async function externalIdOf(deviceId: string): Promise<string> {
  const { rows } = await app.pool.query<{ external_id: string }>(
    'select external_id from devices where id = $1',
    [deviceId],
  );
  return rows[0].external_id;
}

const ISOLATION = {
  type: 'Full isolation',
  reason: 'Ransomware behaviour',
  notes: 'Ticket 4711; user informed',
};

describe('GET /api/security/device-security', () => {
  it('lists riskiest first and combines filters', async () => {
    const { tenant } = await deviceTenant();
    const names = async (query = '') =>
      (
        await api<DataOf<'listSecurityDevices'>>(app, 'GET', `/device-security${query}`, {
          key: org.keys.read,
          tenantId: tenant.id,
        })
      ).body.data.map((d) => d.deviceName);
    expect(await names()).toEqual(['LAPTOP-ANN', 'MAC-BOB', 'PHONE-CY', 'PIXEL-DEE', 'SRV-LINUX']);
    expect(await names('?riskLevel=High,Medium')).toEqual(['LAPTOP-ANN', 'MAC-BOB']);
    expect(await names('?exposureMin=20&exposureMax=60')).toEqual(['MAC-BOB']);
    expect(await names('?osPlatform=iOS&osPlatform=Android&healthState=Active')).toEqual(['PIXEL-DEE']);
    expect(await names('?onboardingStatus=Unsupported')).toEqual(['SRV-LINUX']);
    expect(await names('?search=bob')).toEqual(['MAC-BOB']);
    expect(await names('?riskLevel=No%20data&osPlatform=Linux')).toEqual(['SRV-LINUX']);
  });

  it('refuses an exposure out of range and an unknown platform with 400 naming the field', async () => {
    const { tenant } = await deviceTenant();
    for (const [query, field] of [
      ['exposureMin=101', 'exposureMin'],
      ['exposureMin=50&exposureMax=10', 'exposureMin'],
      ['osPlatform=BeOS', 'osPlatform'],
    ]) {
      const res = await api(app, 'GET', `/device-security?${query}`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).map((f) => f.field.split('.')[0])).toContain(field);
    }
  });

  it('shows a device with its timeline, and the recommendations counted over the devices', async () => {
    const { tenant, ids, alertId } = await deviceTenant();
    const detail = await api<DeviceBody>(app, 'GET', `/device-security/${ids[0]}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ deviceName: 'LAPTOP-ANN', isolationState: 'Not isolated' });
    expect(detail.body.data.timeline).toEqual([
      expect.objectContaining({ kind: 'Alert', alertId, status: 'New' }),
    ]);
    const recs = await api<Array<{ id: string; impact: string; affectedDeviceCount: number }>>(
      app,
      'GET',
      '/device-security/recommendations',
      {
        key: org.keys.read,
        tenantId: tenant.id,
      },
    );
    expect(recs.status).toBe(200);
    expect(recs.body.data.map((r) => [r.id, r.impact, r.affectedDeviceCount])).toEqual([
      ['update-os', 'High', 2],
      ['enable-bitlocker', 'High', 1],
      ['require-passcode', 'Medium', 1],
    ]);
    expect(recs.body.meta).toEqual({ page: 1, limit: 25, total: 3 });
  });
});

describe('isolation', () => {
  it('both isolate paths are one operation: Pending → Succeeded, device.isolated, then 409 on either path; release', async () => {
    const { tenant, ids } = await deviceTenant();
    // The timeline is ordered by time: the isolation comes a minute after the device's alert, never at the
    // same instant (a tie would be broken by random ids).
    app.clock.advance(60_000);
    const started = await api<ActionBody>(app, 'POST', `/device-security/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: ISOLATION,
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      kind: 'Isolate',
      status: 'Pending',
      isolationType: 'Full isolation',
      reason: ISOLATION.reason,
    });
    // While in flight the other path refuses too.
    const inFlight = await api(app, 'POST', `/devices/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: ISOLATION,
    });
    if (inFlight.status !== 409)
      expect((await waitForAction(app, started.body.data.id)) && inFlight.status).toBe(409);
    expect(await waitForAction(app, started.body.data.id)).toBe('Succeeded');

    const status = await api<IsolationStatusBody>(app, 'GET', `/devices/${ids[0]}/isolation-status`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(status.body.data).toMatchObject({
      state: 'Isolated',
      isolationType: 'Full isolation',
      actionInProgress: false,
      lastAction: { id: started.body.data.id, status: 'Succeeded' },
    });
    const isolated = await eventsOf(app, tenant.id, 'device.isolated');
    expect(isolated).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ deviceId: ids[0], isolationType: 'Full isolation' }),
      }),
    ]);

    const again = await api(app, 'POST', `/devices/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: ISOLATION,
    });
    expect(again.status).toBe(409);
    expect(again.body.error?.details).toMatchObject({ from: 'Isolated', allowed: ['release'] });

    app.clock.advance(60_000);
    const release = await api<ActionBody>(app, 'POST', `/devices/${ids[0]}/release`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { reason: 'Threat remediated' },
    });
    expect(release.status).toBe(202);
    expect(await waitForAction(app, release.body.data.id)).toBe('Succeeded');
    const after = await api<IsolationStatusBody>(app, 'GET', `/devices/${ids[0]}/isolation-status`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(after.body.data).toMatchObject({
      state: 'Not isolated',
      isolationType: null,
      lastAction: { kind: 'Release' },
    });
    expect(await eventsOf(app, tenant.id, 'device.released')).toHaveLength(1);
    const releaseAgain = await api(app, 'POST', `/devices/${ids[0]}/release`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { reason: 'again' },
    });
    expect(releaseAgain.status).toBe(409);

    const detail = await api<DeviceBody>(app, 'GET', `/device-security/${ids[0]}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(detail.body.data.timeline?.map((entry) => entry.kind)).toEqual(['Release', 'Isolation', 'Alert']);
    expect(detail.body.data.timeline?.[1].summary).toMatch(/^Full isolation Succeeded \(reason: /);
  });

  it('fails visibly when the cloud cannot reach the device, and emits nothing', async () => {
    const { tenant, ids } = await deviceTenant();
    const started = await api<ActionBody>(app, 'POST', `/devices/${ids[2]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...ISOLATION, type: 'Selective isolation' },
    });
    expect(started.status).toBe(202);
    expect(await waitForAction(app, started.body.data.id)).toBe('Failed');
    const status = await api<IsolationStatusBody>(app, 'GET', `/devices/${ids[2]}/isolation-status`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(status.body.data.state).toBe('Not isolated');
    expect(status.body.data.lastAction).toMatchObject({
      status: 'Failed',
      failureReason: expect.stringContaining('has not checked in'),
    });
    expect(await eventsOf(app, tenant.id, 'device.isolated')).toEqual([]);
  });

  it('refuses devices that are Unsupported or not onboarded with 409, and missing reason or notes with 400', async () => {
    const { tenant, ids } = await deviceTenant();
    for (const id of [ids[3], ids[4]]) {
      const res = await api(app, 'POST', `/devices/${id}/isolate`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: ISOLATION,
      });
      expect(res.status).toBe(409);
      expect(res.body.error?.details).toMatchObject({ required: 'Onboarded' });
    }
    const empty = await api(app, 'POST', `/devices/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { type: 'Full isolation', reason: ' ', notes: '' },
    });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body).map((f) => f.field)).toEqual(['reason', 'notes']);
    const missing = await api(app, 'POST', `/device-security/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { type: 'Full isolation' },
    });
    expect(missing.status).toBe(400);
    const badType = await api(app, 'POST', `/devices/${ids[0]}/isolate`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...ISOLATION, type: 'Partial' },
    });
    expect(badType.status).toBe(400);
    const noReason = await api(app, 'POST', `/devices/${ids[0]}/release`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { reason: '' },
    });
    expect(noReason.status).toBe(400);
    const { rows } = await app.pool.query(
      'select count(*)::int as n from device_actions where tenant_id = $1',
      [tenant.id],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('scans', () => {
  it('runs a scan as a job to Succeeded, puts the result in the timeline and emits device.scan_completed', async () => {
    const { tenant, ids } = await deviceTenant();
    const started = await api<ActionBody>(app, 'POST', `/device-security/${ids[1]}/scan`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { type: 'full' },
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ kind: 'Scan', scanType: 'full', status: 'Pending' });
    expect(await waitForAction(app, started.body.data.id)).toBe('Succeeded');
    const detail = await api<DeviceBody>(app, 'GET', `/device-security/${ids[1]}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    const [entry] = detail.body.data.timeline ?? [];
    expect(entry).toMatchObject({ kind: 'Scan', status: 'Succeeded', actionId: started.body.data.id });
    expect(entry.threatsFound).toEqual(expect.any(Number));
    const events = await eventsOf(app, tenant.id, 'device.scan_completed');
    expect(events).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({
          deviceId: ids[1],
          scanType: 'full',
          threatsFound: entry.threatsFound,
        }),
      }),
    ]);
  });

  it('refuses an unknown scan type (400) and a device that is not onboarded (409)', async () => {
    const { tenant, ids } = await deviceTenant();
    const bad = await api(app, 'POST', `/device-security/${ids[1]}/scan`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { type: 'deep' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).map((f) => f.field)).toContain('type');
    const unsupported = await api(app, 'POST', `/device-security/${ids[3]}/scan`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { type: 'quick' },
    });
    expect(unsupported.status).toBe(409);
  });
});

describe('tenant selection, isolation and permissions', () => {
  // Every row has three items: jest would take a missing third for a done callback.
  const ROUTES: Array<[string, string, unknown]> = [
    ['GET', '/device-security', undefined],
    ['GET', '/device-security/recommendations', undefined],
    ['GET', '/device-security/:id', undefined],
    ['POST', '/device-security/:id/isolate', ISOLATION],
    ['POST', '/device-security/:id/scan', { type: 'quick' }],
    ['POST', '/devices/:id/isolate', ISOLATION],
    ['POST', '/devices/:id/release', { reason: 'done' }],
    ['GET', '/devices/:id/isolation-status', undefined],
  ];

  it.each(ROUTES)(
    '%s %s: 400 without X-Tenant-Id, 404 across organizations, 403 for a Read key on writes',
    async (method, path, body) => {
      const { tenant, ids } = await deviceTenant();
      const at = path.replace(':id', ids[0]);
      const missing = await api(app, method, at, { key: org.keys.admin, body });
      expect(missing.status).toBe(400);
      expect(fieldsOf(missing.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
      expect((await api(app, method, at, { key: other.keys.admin, tenantId: tenant.id, body })).status).toBe(
        404,
      );
      if (path.includes(':id')) {
        const theirs = await createTenant(app, other.scope);
        expect(
          (await api(app, method, at, { key: other.keys.admin, tenantId: theirs.id, body })).status,
        ).toBe(404);
      }
      if (method === 'POST')
        expect((await api(app, method, at, { key: org.keys.read, tenantId: tenant.id, body })).status).toBe(
          403,
        );
      const { rows } = await app.pool.query(
        'select count(*)::int as n from device_actions where tenant_id = $1',
        [tenant.id],
      );
      expect(rows[0].n).toBe(0);
    },
  );
});

describe('GraphQL', () => {
  it('isolates through isolateDevice and reads the same action through deviceIsolationStatus', async () => {
    const { tenant, ids } = await deviceTenant();
    app.clock.advance(60_000); // after the device's alert, never tied with it (as in the REST test above)
    const res = await app.graphql<{ isolateDevice: { id: string; status: string } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { isolateDevice(tenantId: $t, id: $id, input: { type: SELECTIVE, reason: "r", notes: "n" }) { id status } }`,
      { t: tenant.id, id: ids[0] },
    );
    expect(res.body.data?.isolateDevice.status).toBe('PENDING');
    expect(await waitForAction(app, res.body.data!.isolateDevice.id)).toBe('Succeeded');
    const status = await app.graphql<{
      deviceIsolationStatus: { state: string; isolationType: string; lastAction: { id: string } };
    }>(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { deviceIsolationStatus(tenantId: $t, id: $id) { state isolationType lastAction { id } } }`,
      { t: tenant.id, id: ids[0] },
    );
    expect(status.body.data?.deviceIsolationStatus).toEqual({
      state: 'ISOLATED',
      isolationType: 'SELECTIVE',
      lastAction: { id: res.body.data!.isolateDevice.id },
    });
    const list = await app.graphql<{
      securityDevices: { items: Array<{ deviceName: string; timeline: unknown[] }> };
    }>(
      org.keys.read,
      `query($t: UUID!) { securityDevices(tenantId: $t, filter: { osPlatform: [WINDOWS] }) { items { deviceName timeline { kind } } } }`,
      { t: tenant.id },
    );
    expect(list.body.data?.securityDevices.items).toEqual([
      { deviceName: 'LAPTOP-ANN', timeline: [{ kind: 'ISOLATION' }, { kind: 'ALERT' }] },
    ]);
  });
});
