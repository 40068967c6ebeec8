import { jest } from '@jest/globals';
import type { User } from '@microsoft/microsoft-graph-types';
import { checkCustomerConsent } from '../../src/cloud/microsoft365/graph-consent.js';
import {
  delegatedAdminCustomersPage,
  listDelegatedAdminCustomers,
  readOrganization,
} from '../../src/cloud/microsoft365/graph-directory.js';
import { isDeltaLinkExpired, tokenProblemOf } from '../../src/cloud/microsoft365/graph-errors.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { fakeUser } from '../graph-fake/graph-fake-state.js';
import {
  startGraphScenario,
  unknownTenantId,
  type GraphScenario,
  cloudFailure,
} from '../helpers/graph-fake.js';

/** Every fakeable API but Date: a test moves the wall clock only. */
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

let scenario: GraphScenario;
let transport: GraphTransport;
const credentials = () => ({ clientId: scenario.app.clientId, clientSecret: scenario.secret });

beforeAll(async () => {
  scenario = await startGraphScenario();
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  // A fresh token cache per test, so each counts its own token requests.
  transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  scenario.fake.clearRequests();
  scenario.fake.state.tokenLifetimeSeconds = 3599;
});

describe('tokens', () => {
  it('asks Entra ID once per tenant, only at the token endpoint, and reads the roles claim', async () => {
    const first = await transport.token(credentials(), scenario.partner.id);
    const again = await transport.token(credentials(), scenario.partner.id);
    await transport.token(credentials(), scenario.consented.id);
    expect(again.accessToken).toBe(first.accessToken);
    expect(first.roles).toContain('Organization.Read.All');
    expect(first.roles).toEqual([...first.roles].sort());
    // No instance discovery, no OpenID configuration: the token requests and nothing else (MSAL adds its
    // client-request-id to the query).
    expect(scenario.fake.requests.map((r) => `${r.service} ${r.method} ${r.url.split('?')[0]}`)).toEqual([
      `login POST /${scenario.partner.id}/oauth2/v2.0/token`,
      `login POST /${scenario.consented.id}/oauth2/v2.0/token`,
    ]);
  });

  it('renews a token before it expires (five minutes ahead)', async () => {
    scenario.fake.state.tokenLifetimeSeconds = 302;
    const first = await transport.token(credentials(), scenario.partner.id);
    expect((await transport.token(credentials(), scenario.partner.id)).accessToken).toBe(first.accessToken);
    // Three seconds later by the clock MSAL reads (Date; its timers and the sockets' stay real), instead of
    // waiting them out: the token now ends within MSAL's five minutes.
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() + 3_000 });
    let renewed;
    try {
      renewed = await transport.token(credentials(), scenario.partner.id);
    } finally {
      jest.useRealTimers();
    }
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(scenario.fake.tokenRequests()).toHaveLength(2);
  });

  it.each([
    ['consentMissing', 'AADSTS65001', 'CONSENT_REQUIRED', 'Forbidden'],
    ['unknownApp', 'AADSTS700016', 'APP_UNKNOWN', 'Forbidden'],
  ] as const)('maps a customer that has not consented (%s) to %s', async (which, code, problem, kind) => {
    const error = await cloudFailure(transport.token(credentials(), scenario[which].id));
    expect(error).toMatchObject({
      kind,
      cloudCode: code,
      reason: 'CONSENT_REQUIRED',
      provider: 'microsoft365',
    });
    expect(tokenProblemOf(error)).toBe(problem);
  });

  it('tells a consented customer from one whose admin must consent (with the admin-consent URL)', async () => {
    expect(await checkCustomerConsent(transport, credentials(), scenario.consented.id)).toMatchObject({
      consented: true,
      roles: expect.arrayContaining(['User.ReadWrite.All']),
    });
    for (const tenant of [scenario.consentMissing, scenario.unknownApp]) {
      const refused = await checkCustomerConsent(transport, credentials(), tenant.id);
      expect(refused).toMatchObject({ consented: false, error: { reason: 'CONSENT_REQUIRED' } });
      expect(refused.consented === false && refused.adminConsentUrl).toBe(
        `${scenario.fake.loginUrl}/${tenant.id}/v2.0/adminconsent?client_id=${scenario.app.clientId}` +
          '&scope=https%3A%2F%2Fgraph.microsoft.com%2F.default',
      );
    }
    await expect(
      checkCustomerConsent(transport, { ...credentials(), clientSecret: 'nope' }, scenario.consented.id),
    ).rejects.toMatchObject({ kind: 'Forbidden', cloudCode: 'AADSTS7000215' });
  });

  it('maps a wrong secret, an expired secret and an unknown tenant', async () => {
    const wrong = await cloudFailure(
      transport.token({ ...credentials(), clientSecret: 'nope' }, scenario.partner.id),
    );
    expect(wrong).toMatchObject({ kind: 'Forbidden', cloudCode: 'AADSTS7000215' });
    expect(tokenProblemOf(wrong)).toBe('BAD_SECRET');
    scenario.app.expiredSecrets.push('old-secret');
    const expired = await cloudFailure(
      transport.token({ ...credentials(), clientSecret: 'old-secret' }, scenario.partner.id),
    );
    expect(tokenProblemOf(expired)).toBe('SECRET_EXPIRED');
    const tenant = await cloudFailure(transport.token(credentials(), unknownTenantId()));
    expect(tenant).toMatchObject({ kind: 'NotFound', cloudCode: 'AADSTS90002' });
  });
});

describe('Graph calls', () => {
  it('pages through @odata.nextLink lazily and lists the partner customers', async () => {
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    const pages = [];
    for await (const page of graph.pages<User>('/users', { query: { $select: 'id,displayName' } }))
      pages.push(page);
    expect(pages.map((page) => page.value.length)).toEqual([2, 2, 1]);
    expect(pages[0].value[0]).toEqual({ id: expect.any(String), displayName: 'Adele Vance' });
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/users?$select=id,displayName',
      expect.stringMatching(/^GET \/v1\.0\/users\?\$skiptoken=[\w-]+$/),
      expect.stringMatching(/^GET \/v1\.0\/users\?\$skiptoken=[\w-]+$/),
    ]);
    const customers = await listDelegatedAdminCustomers(
      transport.forTenant(credentials(), scenario.partner.id),
    );
    expect(customers.map((customer) => customer.displayName)).toEqual([
      'Fabrikam',
      'Northwind Traders',
      'Tailspin Toys',
    ]);
    const organization = await readOrganization(graph);
    expect(organization).toEqual({
      tenantId: scenario.consented.id,
      displayName: 'Fabrikam',
      domains: ['fabrikam.com', 'fabrikam.onmicrosoft.com'],
      defaultDomain: 'fabrikam.com',
    });
  });

  it('serves the customers page by page with Graph nextLinks as cursors, refusing foreign cursors', async () => {
    const partner = transport.forTenant(credentials(), scenario.partner.id);
    const first = await delegatedAdminCustomersPage(partner, scenario.fake.graphUrl, null, 2);
    expect(first.items.map((customer) => customer.displayName)).toEqual(['Fabrikam', 'Northwind Traders']);
    const second = await delegatedAdminCustomersPage(partner, scenario.fake.graphUrl, first.nextCursor, 2);
    expect(second).toEqual({
      items: [{ tenantId: scenario.unknownApp.id, displayName: 'Tailspin Toys' }],
      nextCursor: null,
    });
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/tenantRelationships/delegatedAdminCustomers?$select=id,tenantId,displayName&$top=2',
      expect.stringMatching(/^GET \/v1\.0\/tenantRelationships\/delegatedAdminCustomers\?\$skiptoken=/),
    ]);
    await expect(
      delegatedAdminCustomersPage(
        partner,
        scenario.fake.graphUrl,
        'https://elsewhere.example/v1.0/users?$skiptoken=x',
      ),
    ).rejects.toThrow(RangeError);
  });

  it('syncs users by delta: all first, then changes from the deltaLink, and tells an expired link', async () => {
    const { state } = scenario.fake;
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    let deltaLink: string | undefined;
    const seen: string[] = [];
    for await (const page of graph.pages<User>('/users/delta', { query: { $select: 'id,displayName' } })) {
      seen.push(...page.value.map((user) => user.displayName ?? ''));
      deltaLink = page.deltaLink;
    }
    expect(seen).toHaveLength(5);
    expect(deltaLink).toMatch(/\/v1\.0\/users\/delta\?\$deltatoken=/);
    const added = state.putUser(scenario.consented, fakeUser(scenario.consented, 'Megan Bowen'));
    const changes = await graph.all<User>(deltaLink!);
    expect(changes.map((user) => user.id)).toEqual([added.id]);
    state.expireDeltaLinks(scenario.consented);
    const expired = await cloudFailure(graph.all(deltaLink!));
    expect(isDeltaLinkExpired(expired)).toBe(true);
    expect(expired.cloudCode).toBe('syncStateNotFound');
  });

  it('retries a 429 after its Retry-After, and does not sleep through a long one', async () => {
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    scenario.fake.inject({ url: '/subscribedSkus', status: 429, retryAfterSeconds: 1 });
    const started = Date.now();
    const skus = await graph.get<{ value: unknown[] }>('/subscribedSkus');
    expect(skus.value).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(
      scenario.fake.requests.filter((r) => r.service === 'graph').map((r) => [r.status, r.retryAttempt]),
    ).toEqual([
      [429, undefined],
      [200, '1'],
    ]);
    scenario.fake.inject({ url: '/subscribedSkus', status: 429, retryAfterSeconds: 120 });
    const throttled = await cloudFailure(graph.get('/subscribedSkus'));
    expect(throttled).toMatchObject({
      kind: 'Throttled',
      retryAfterSeconds: 120,
      cloudCode: 'TooManyRequests',
    });
  });

  it('gives up on a 503 after the bounded retries: Transient', async () => {
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    scenario.fake.inject({ url: '/organization', status: 503, times: 5 });
    const error = await cloudFailure(graph.get('/organization'));
    expect(error).toMatchObject({ kind: 'Transient', retryable: true, cloudCode: 'serviceNotAvailable' });
    expect(scenario.fake.graphCalls()).toEqual(Array(3).fill('GET /v1.0/organization'));
  });

  it('maps 403, 404, 400/409 (with Graph message) and a Graph that does not answer', async () => {
    scenario.partner.consents.set(scenario.app.clientId, { roles: ['Organization.Read.All'] });
    try {
      const partner = transport.forTenant(credentials(), scenario.partner.id);
      const forbidden = await cloudFailure(listDelegatedAdminCustomers(partner));
      expect(forbidden).toMatchObject({
        kind: 'Forbidden',
        reason: 'PERMISSION_MISSING',
        cloudCode: 'Authorization_RequestDenied',
      });
    } finally {
      scenario.partner.consents.set(scenario.app.clientId, {
        roles: [...(await import('../helpers/graph-fake.js')).FULL_ROLES],
      });
    }
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    scenario.fake.inject({
      url: '/users',
      status: 404,
      code: 'Request_ResourceNotFound',
      message: 'Resource does not exist.',
    });
    expect(await cloudFailure(graph.get('/users'))).toMatchObject({ kind: 'NotFound' });
    const message = 'Another object with the same value for property userPrincipalName already exists.';
    scenario.fake.inject({ url: '/users', status: 400, code: 'Request_BadRequest', message });
    expect(await cloudFailure(graph.get('/users'))).toMatchObject({ kind: 'Refused', message });
    scenario.fake.inject({
      url: '/users',
      status: 409,
      code: 'Conflict',
      message: 'Conflict with the current state.',
    });
    expect(await cloudFailure(graph.get('/users'))).toMatchObject({
      kind: 'Refused',
      message: 'Conflict with the current state.',
    });
    const slow = new GraphTransport(
      microsoft365SettingsOf({ microsoft365: { ...scenario.settings, requestTimeoutMs: 300 } }),
    );
    scenario.fake.inject({ url: '/organization', status: 200, delayMs: 1_000 });
    const timeout = await cloudFailure(
      slow.forTenant(credentials(), scenario.consented.id).get('/organization'),
    );
    expect(timeout.kind).toBe('Transient');
  });

  it('sends several calls in one $batch, each answering on its own', async () => {
    const graph = transport.forTenant(credentials(), scenario.consented.id);
    const results = await graph.batch([
      { id: 'org', method: 'GET', url: '/organization?$select=id,displayName' },
      { id: 'nope', method: 'GET', url: '/nothing' },
      { id: 'skus', method: 'GET', url: '/subscribedSkus' },
    ]);
    expect(results.map((result) => [result.id, result.ok])).toEqual([
      ['org', true],
      ['nope', false],
      ['skus', true],
    ]);
    expect(results[1]).toMatchObject({ ok: false, error: { kind: 'Refused' } });
    expect(scenario.fake.graphCalls()).toEqual(['POST /v1.0/$batch']);
  });
});
