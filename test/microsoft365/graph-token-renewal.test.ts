import { defenderClientOf } from '../../src/cloud/microsoft365/defender-client.js';
import type { GraphTenantClient } from '../../src/cloud/microsoft365/graph-client.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { fakeDefender, fakeMachine } from '../graph-fake/graph-fake-defender.js';
import { eventually } from '../helpers/eventually.js';
import { cloudFailure, FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/**
 * A token Graph or Defender for Endpoint refuses (401) is answered one way, whatever carried it: a Graph call
 * (live-consent-withdrawn), a `$batch` item, a Defender call. Entra ID is asked for a fresh token once; issued,
 * what was refused is sent again (a 401 means nothing was done); refused as not consented, the call fails
 * Forbidden CONSENT_REQUIRED naming the tenant and nothing is sent again. docs/microsoft365.md, "Tokens,
 * throttling and errors".
 */
let scenario: GraphScenario;
let graph: GraphTenantClient;
let machineId: string;

const BATCH = [
  { id: 'org', method: 'GET' as const, url: '/organization?$select=id,displayName' },
  { id: 'skus', method: 'GET' as const, url: '/subscribedSkus' },
];
const withdraw = () => scenario.consented.consents.set(scenario.app.clientId, 'consent-missing');
const consentAgain = () => scenario.consented.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
const graphStatuses = () =>
  scenario.fake.requests.filter((request) => request.service === 'graph').map((request) => request.status);
const defenderStatuses = () =>
  scenario.fake.requests.filter((request) => request.service === 'defender').map((request) => request.status);
const tokenScopes = () =>
  scenario.fake.tokenRequests().map((request) => `${request.tenantId} ${request.status}`);

beforeAll(async () => {
  scenario = await startGraphScenario();
  const machine = fakeMachine({ computerDnsName: 'laptop-renewal' });
  fakeDefender(scenario.consented).machines.push(machine);
  machineId = machine.id;
});
afterAll(() => scenario.fake.stop());
beforeEach(async () => {
  consentAgain();
  // A fresh token cache per test, warmed: the tokens MSAL holds are ones Graph and Defender accepted.
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  graph = transport.forTenant(
    { clientId: scenario.app.clientId, clientSecret: scenario.secret },
    scenario.consented.id,
  );
  await graph.get('/organization');
  await defenderClientOf(graph).get('/api/machines');
  scenario.fake.clearRequests();
});

describe('$batch', () => {
  it('items whose token Graph refused (401 inside the batch) are sent again after a fresh token', async () => {
    withdraw();
    // Entra ID answers the fresh token request late; the consent is back by then (the token request decides).
    scenario.fake.inject({ service: 'login', status: 200, delayMs: 500 });
    const pending = graph.batch(BATCH);
    await eventually(() => expect(scenario.fake.tokenRequests()).toHaveLength(1));
    consentAgain();
    const results = await pending;
    expect(results.map((result) => [result.id, result.ok, result.status])).toEqual([
      ['org', true, 200],
      ['skus', true, 200],
    ]);
    expect(scenario.fake.graphCalls()).toEqual(['POST /v1.0/$batch', 'POST /v1.0/$batch']);
    expect(graphStatuses()).toEqual([200, 200]);
    const [first, second] = scenario.fake.requests
      .filter((request) => request.service === 'graph')
      .map((request) => (request.body as { requests: { id: string }[] }).requests.map((item) => item.id));
    expect(first).toEqual(['org', 'skus']);
    expect(second).toEqual(['org', 'skus']);
  });

  it('after the consent is withdrawn: CONSENT_REQUIRED naming the tenant, one fresh token asked, nothing sent again', async () => {
    withdraw();
    const refused = await cloudFailure(graph.batch(BATCH));
    expect(refused).toMatchObject({
      kind: 'Forbidden',
      reason: 'CONSENT_REQUIRED',
      tenantExternalId: scenario.consented.id,
    });
    expect(refused.message).toContain(
      `customer tenant ${scenario.consented.id} no longer grants the app access`,
    );
    expect(scenario.fake.graphCalls()).toEqual(['POST /v1.0/$batch']);
    expect(tokenScopes()).toEqual([`${scenario.consented.id} 400`]);
  });

  it('a batch whose token Graph no longer knows (401 for the whole batch) is sent again after a fresh token', async () => {
    scenario.fake.state.tokens.clear();
    const results = await graph.batch(BATCH);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(graphStatuses()).toEqual([401, 200]);
    expect(tokenScopes()).toEqual([`${scenario.consented.id} 200`]);
  });
});

describe('Defender for Endpoint', () => {
  it('a token Defender no longer accepts is renewed for its scope once, and the call goes through', async () => {
    scenario.fake.state.tokens.clear();
    const machine = await defenderClientOf(graph).get<{ id: string }>(`/api/machines/${machineId}`);
    expect(machine.id).toBe(machineId);
    expect(defenderStatuses()).toEqual([401, 200]);
    expect(tokenScopes()).toEqual([`${scenario.consented.id} 200`]);
    const issued = [...scenario.fake.state.tokens.values()];
    expect(issued.map((token) => token.audience)).toEqual(['defender']);
  });

  it('after the consent is withdrawn, a machine action: CONSENT_REQUIRED naming the tenant, no action taken', async () => {
    withdraw();
    const refused = await cloudFailure(
      defenderClientOf(graph).post(`/api/machines/${machineId}/isolate`, {
        Comment: 'Isolated by the renewal test',
        IsolationType: 'Full',
      }),
    );
    expect(refused).toMatchObject({
      kind: 'Forbidden',
      reason: 'CONSENT_REQUIRED',
      tenantExternalId: scenario.consented.id,
    });
    expect(refused.message).toContain('Defender for Endpoint refused its token');
    expect(scenario.fake.defenderCalls()).toEqual([`POST /api/machines/${machineId}/isolate`]);
    expect(defenderStatuses()).toEqual([401]);
    expect(tokenScopes()).toEqual([`${scenario.consented.id} 400`]);
    expect(fakeDefender(scenario.consented).actions).toEqual([]);
  });
});
