import { randomUUID } from 'node:crypto';
import { PermissionLevel } from '../../src/core/permissions.js';
import { createApiKey, createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import type { DataOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import {
  FULL_ROLES,
  startGraphScenario,
  unknownTenantId,
  type GraphScenario,
} from '../helpers/graph-fake.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

type Connection = DataOf<'getCloudConnection'>;
const PATH = '/api/settings/cloud-connection';

let scenario: GraphScenario;
let app: RealmApp;

beforeAll(async () => {
  scenario = await startGraphScenario();
  app = await realmApp({ microsoft365: scenario.settings });
});
afterAll(async () => {
  await app.stop();
  await scenario.fake.stop();
});
beforeEach(() => scenario.fake.clearRequests());

const credentials = (fields: Record<string, string> = {}) => ({
  provider: 'microsoft365',
  partnerTenantId: scenario.partner.id,
  clientId: scenario.app.clientId,
  clientSecret: scenario.secret,
  ...fields,
});

const put = (key: string, body: unknown) => app.request<Envelope<Connection>>('PUT', PATH, { key, body });
const get = (key: string) => app.request<Envelope<Connection>>('GET', PATH, { key });

async function storedRows(
  organizationId: string,
): Promise<Array<{ client_secret: string | null; environment: string }>> {
  const { rows } = await app.pool.query<{ client_secret: string | null; environment: string }>(
    'select client_secret, environment from cloud_connections where organization_id = $1',
    [organizationId],
  );
  return rows;
}

describe('PUT /api/settings/cloud-connection (Microsoft 365)', () => {
  let org: OrganizationWithKeys;
  beforeAll(async () => {
    org = await createOrganizationWithKeys(app);
  });

  it('tests first (a partner token, GET /organization), then saves with the secret sealed and never returned', async () => {
    expect((await get(org.liveAdminKey)).body.data).toMatchObject({ connected: false, capabilities: [] });
    const res = await put(org.liveAdminKey, credentials());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      connected: true,
      provider: 'microsoft365',
      partnerTenantId: scenario.partner.id,
      clientId: scenario.app.clientId,
      clientSecretSet: true,
      providerActive: true,
      grantedPermissions: FULL_ROLES,
      lastTest: { succeeded: true, at: app.clock.now().toISOString() },
      adminConsentUrl:
        `${scenario.fake.loginUrl}/{customerTenantId}/v2.0/adminconsent?client_id=${scenario.app.clientId}` +
        '&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default',
    });
    expect(scenario.fake.requests.map((r) => `${r.service} ${r.method} ${r.url.split('?')[0]}`)).toEqual([
      `login POST /${scenario.partner.id}/oauth2/v2.0/token`,
      'graph GET /v1.0/organization',
      // Defender's scope: its Machine.* permissions are in that token's roles, not in Graph's.
      `login POST /${scenario.partner.id}/oauth2/v2.0/token`,
    ]);
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/organization?$select=id,displayName,verifiedDomains',
    ]);
    const capabilities = new Map(res.body.data.capabilities.map((c) => [c.capability, c]));
    expect(capabilities.get('users')).toMatchObject({ available: true, missingPermissions: [] });
    expect(capabilities.get('deviceActions')).toMatchObject({ available: true, missingPermissions: [] });
    for (const name of [
      'mailContacts',
      'restrictedSenders',
      'informationBarriers',
      'endpointDlp',
      'complianceConnectorSources',
    ])
      expect(capabilities.get(name)).toMatchObject({
        available: false,
        reason: expect.stringContaining('no API'),
      });
    const read = await get(org.liveAdminKey);
    for (const body of [res.body, read.body]) expect(JSON.stringify(body)).not.toContain(scenario.secret);
    expect(read.body.data).toEqual(res.body.data);
    const [row] = await storedRows(org.organization.id);
    expect(row.environment).toBe('live');
    expect(row.client_secret).toMatch(/^enc:v1:/);
    expect(row.client_secret).not.toContain(scenario.secret);
  });

  it.each([
    ['a wrong secret', { clientSecret: 'wrong' }, 'BAD_SECRET', 'clientSecret'],
    ['an unknown app', { clientId: randomUUID() }, 'APP_UNKNOWN', 'clientId'],
    ['an unknown tenant', { partnerTenantId: unknownTenantId() }, 'TENANT_UNKNOWN', 'partnerTenantId'],
  ])(
    'refuses %s with 400 naming what failed, and keeps the saved connection',
    async (_what, change, reason, field) => {
      const before = (await get(org.liveAdminKey)).body.data;
      const res = await put(org.liveAdminKey, credentials(change));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: { reason, step: 'token', fields: [{ field, problem: expect.any(String) }] },
      });
      expect(scenario.fake.graphCalls()).toEqual([]);
      expect((await get(org.liveAdminKey)).body.data).toEqual(before);
    },
  );

  it('tests the saved connection again on demand, recording a failure (an expired secret) and a success', async () => {
    const test = () => app.request<Envelope<Connection>>('POST', `${PATH}/test`, { key: org.liveAdminKey });
    const secret = scenario.app.secrets.shift()!;
    scenario.app.expiredSecrets.push(secret);
    try {
      app.clock.advance(60_000);
      const failed = await test();
      expect(failed.status).toBe(200);
      expect(failed.body.data.lastTest).toEqual({
        succeeded: false,
        at: app.clock.now().toISOString(),
        message: expect.stringContaining('clientSecret: has expired (AADSTS7000222)'),
      });
      expect((await get(org.liveAdminKey)).body.data.lastTest!.succeeded).toBe(false);
    } finally {
      scenario.app.expiredSecrets.pop();
      scenario.app.secrets.push(secret);
    }
    const passed = await test();
    expect(passed.body.data.lastTest).toMatchObject({
      succeeded: true,
      message: expect.stringContaining('Contoso MSP'),
    });
    const fresh = await createOrganizationWithKeys(app);
    const none = await app.request<Envelope>('POST', `${PATH}/test`, { key: fresh.liveAdminKey });
    expect(none.status).toBe(409);
  });

  it('refuses an app without the permission the test read needs (403 from Graph), nothing stored', async () => {
    const fresh = await createOrganizationWithKeys(app);
    scenario.partner.consents.set(scenario.app.clientId, { roles: ['User.Read.All'] });
    try {
      const res = await put(fresh.liveAdminKey, credentials());
      expect(res.status).toBe(400);
      expect(res.body.error!.details).toMatchObject({
        reason: 'PERMISSION_MISSING',
        step: 'graph',
        missingPermissions: ['Organization.Read.All'],
        grantedPermissions: ['User.Read.All'],
      });
    } finally {
      scenario.partner.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
    }
    expect(await storedRows(fresh.organization.id)).toEqual([]);
  });

  it('answers 503 with Retry-After when Graph keeps failing, nothing stored', async () => {
    const fresh = await createOrganizationWithKeys(app);
    scenario.fake.inject({ url: '/organization', status: 503, retryAfterSeconds: 1, times: 3 });
    const res = await put(fresh.liveAdminKey, credentials());
    expect(res.status).toBe(503);
    expect(res.body.error!.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await storedRows(fresh.organization.id)).toEqual([]);
  });

  it('checks the input first: each missing or malformed field named, no call to the cloud', async () => {
    const res = await put(org.liveAdminKey, {
      provider: 'microsoft365',
      partnerTenantId: 'not a tenant',
      clientId: 'x',
    });
    expect(res.status).toBe(400);
    expect(res.body.error!.details.fields).toEqual([
      { field: 'partnerTenantId', problem: expect.any(String) },
      { field: 'clientId', problem: expect.any(String) },
      { field: 'clientSecret', problem: 'is required for microsoft365' },
    ]);
    const simulated = await put(org.liveAdminKey, { provider: 'simulated', clientSecret: 'x' });
    expect(simulated.body.error!.details.fields).toEqual([
      { field: 'clientSecret', problem: expect.stringContaining('no credentials') },
    ]);
    expect(scenario.fake.requests).toEqual([]);
  });
});

describe('who may', () => {
  it('refuses sandbox keys with a clear message, and live Read/Write keys, storing nothing', async () => {
    const org = await createOrganizationWithKeys(app);
    for (const key of Object.values(org.keys)) {
      const res = await put(key, credentials());
      expect(res.status).toBe(403);
      expect(res.body.error!.message).toContain('live environment');
      expect((await get(key)).status).toBe(403);
    }
    for (const level of [PermissionLevel.READ, PermissionLevel.WRITE]) {
      const { secret } = await createApiKey(app, org.liveScope, level);
      expect((await put(secret, credentials())).status).toBe(403);
      expect((await get(secret)).status).toBe(403);
      expect((await app.request('DELETE', PATH, { key: secret })).status).toBe(403);
    }
    expect(scenario.fake.requests).toEqual([]);
    expect(await storedRows(org.organization.id)).toEqual([]);
  });

  it("keeps organizations apart: another organization neither sees nor removes one's connection", async () => {
    const [a, b] = [await createOrganizationWithKeys(app), await createOrganizationWithKeys(app)];
    expect((await put(a.liveAdminKey, { provider: 'simulated' })).status).toBe(200);
    expect((await get(b.liveAdminKey)).body.data.connected).toBe(false);
    expect((await app.request('DELETE', PATH, { key: b.liveAdminKey })).status).toBe(200);
    expect((await get(a.liveAdminKey)).body.data).toMatchObject({ connected: true, provider: 'simulated' });
  });
});

describe('simulated provider and DELETE', () => {
  it('accepts the simulated cloud without a test call, then removes it', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await put(org.liveAdminKey, { provider: 'simulated' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      connected: true,
      provider: 'simulated',
      providerActive: true,
      clientSecretSet: false,
    });
    expect(res.body.data.capabilities.every((capability) => capability.available)).toBe(true);
    expect(scenario.fake.requests).toEqual([]);
    const removed = await app.request<Envelope<Connection>>('DELETE', PATH, { key: org.liveAdminKey });
    expect(removed.body.data).toMatchObject({ connected: false });
    expect(await storedRows(org.organization.id)).toEqual([]);
  });
});

describe('GraphQL', () => {
  const FIELDS = 'connected provider clientId clientSecretSet grantedPermissions lastTest { succeeded }';
  it('connects, reads and disconnects with the same rules', async () => {
    const org = await createOrganizationWithKeys(app);
    const refused = await app.graphql(
      org.liveAdminKey,
      `mutation($input: ConnectCloudInput!) { connectCloud(input: $input) { connected } }`,
      {
        input: { ...credentials({ clientSecret: 'wrong' }), provider: 'MICROSOFT365' },
      },
    );
    expect(refused.body.errors![0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { reason: 'BAD_SECRET' },
    });
    const sandbox = await app.graphql(org.keys.admin, `{ cloudConnection { connected } }`);
    expect(sandbox.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const connected = await app.graphql<{ connectCloud: Record<string, unknown> }>(
      org.liveAdminKey,
      `mutation($input: ConnectCloudInput!) { connectCloud(input: $input) { ${FIELDS} } }`,
      { input: { ...credentials(), provider: 'MICROSOFT365' } },
    );
    expect(connected.body.data!.connectCloud).toEqual({
      connected: true,
      provider: 'MICROSOFT365',
      clientId: scenario.app.clientId,
      clientSecretSet: true,
      grantedPermissions: FULL_ROLES,
      lastTest: { succeeded: true },
    });
    const read = await app.graphql<{ cloudConnection: Record<string, unknown> }>(
      org.liveAdminKey,
      `{ cloudConnection { ${FIELDS} } }`,
    );
    expect(read.body.data!.cloudConnection).toEqual(connected.body.data!.connectCloud);
    const gone = await app.graphql<{ disconnectCloud: { connected: boolean } }>(
      org.liveAdminKey,
      'mutation { disconnectCloud { connected } }',
    );
    expect(gone.body.data!.disconnectCloud.connected).toBe(false);
    expect(await storedRows(org.organization.id)).toEqual([]);
  });
});
