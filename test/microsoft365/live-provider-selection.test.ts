import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createOrganizationWithKeys } from '../factories/shared.js';
import { startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

/**
 * Which cloud the live environment acts on, per organization, from its connection row: two servers on one
 * database see the same choice at their next request (no in-memory-only truth).
 */
let scenario: GraphScenario;
let first: RealmApp;
let second: RealmApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  scenario = await startGraphScenario();
  first = await realmApp({ microsoft365: scenario.settings });
  second = await realmApp({ microsoft365: scenario.settings, databaseUrl: first.databaseUrl });
  org = await createOrganizationWithKeys(first);
});
afterAll(async () => {
  await second?.stop();
  await first?.stop();
  await scenario?.fake.stop();
});
beforeEach(() => scenario.fake.clearRequests());

const CUSTOMERS =
  'GET /v1.0/tenantRelationships/delegatedAdminCustomers?$select=id,tenantId,displayName&$top=25';

async function available(app: RealmApp, key: string): Promise<string[]> {
  const res = await app.request<{ data: Array<{ externalId: string }> }>('GET', '/v1/available-tenants', {
    key,
  });
  expect(res.status).toBe(200);
  return res.body.data.map((item) => item.externalId);
}

const connect = (app: RealmApp, body: Record<string, string>) =>
  app.request('PUT', '/api/settings/cloud-connection', { key: org.liveAdminKey, body });

describe('the live provider follows the connection row', () => {
  it('without a connection the live environment acts on the simulated cloud (no Graph call)', async () => {
    expect(await available(first, org.liveAdminKey)).toEqual([]);
    expect(scenario.fake.graphCalls()).toEqual([]);
  });

  it('a Microsoft 365 connection saved on one server is used by both; switching to simulated or removing it counts at once', async () => {
    const saved = await connect(first, {
      provider: 'microsoft365',
      partnerTenantId: scenario.partner.id,
      clientId: scenario.app.clientId,
      clientSecret: scenario.secret,
    });
    expect(saved.status).toBe(200);
    scenario.fake.clearRequests();
    const customers = [scenario.consented.id, scenario.consentMissing.id, scenario.unknownApp.id];
    expect(await available(first, org.liveAdminKey)).toEqual(customers);
    expect(await available(second, org.liveAdminKey)).toEqual(customers);
    expect(scenario.fake.graphCalls()).toEqual([CUSTOMERS, CUSTOMERS]);
    // The sandbox never reaches Graph.
    expect(await available(second, org.keys.read)).toEqual([]);
    expect(scenario.fake.graphCalls()).toHaveLength(2);

    scenario.fake.clearRequests();
    expect((await connect(second, { provider: 'simulated' })).status).toBe(200);
    expect(await available(first, org.liveAdminKey)).toEqual([]);
    expect(scenario.fake.graphCalls()).toEqual([]);

    await connect(first, {
      provider: 'microsoft365',
      partnerTenantId: scenario.partner.id,
      clientId: scenario.app.clientId,
      clientSecret: scenario.secret,
    });
    expect(await available(second, org.liveAdminKey)).toEqual(customers);
    expect(
      (await first.request('DELETE', '/api/settings/cloud-connection', { key: org.liveAdminKey })).status,
    ).toBe(200);
    scenario.fake.clearRequests();
    expect(await available(second, org.liveAdminKey)).toEqual([]);
    expect(scenario.fake.graphCalls()).toEqual([]);
  });

  it('with LIVE_WITHOUT_CLOUD_CONNECTION=none a live environment without a connection is refused (409), the sandbox is not', async () => {
    // A ConnectedClouds of the first server's ORM and dependencies, but for LIVE_WITHOUT_CLOUD_CONNECTION=none.
    const strict = (scope: OrganizationWithKeys['scope']) =>
      onServer(first, 'connectedCloudName', scope, 'none');
    const other = await createOrganizationWithKeys(first);
    await expect(strict(other.liveScope)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('no cloud connection'),
    });
    expect(await strict(other.scope)).toBe('simulated');
  });
});
