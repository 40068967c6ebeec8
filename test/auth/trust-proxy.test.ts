import { loadConfig, parseTrustProxy } from '../../src/config.js';
import { PermissionLevel } from '../../src/core/permissions.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import { createApiKey, createOrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { ServerProcess } from '../helpers/server-process.js';
import { connect } from '../subscriptions/subscription-kit.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

describe('TRUST_PROXY (configuration)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['TRUE', true],
    ['0', 0],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.1, 192.168.0.0/16,loopback', ['10.0.0.1', '192.168.0.0/16', 'loopback']],
    ['fd00::/8,::1', ['fd00::/8', '::1']],
    ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
  ])('reads %p as %p (Express trust proxy)', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each(['yes please', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '1.5'])(
    'refuses %p at start-up, naming the variable',
    (raw) => {
      expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/);
    },
  );
});

describe('TRUST_PROXY (the real server)', () => {
  let app: RealmApp;
  let behindProxy: ServerProcess;
  let allowed: { secret: string };

  beforeAll(async () => {
    app = await realmApp();
    behindProxy = await ServerProcess.start(app.databaseUrl, { TRUST_PROXY: 'loopback' });
    const enterprise = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM });
    allowed = await createApiKey(app, enterprise.scope, PermissionLevel.READ, {
      allowedIps: ['203.0.113.7'],
    });
  }, 60_000);
  afterAll(async () => {
    await behindProxy?.stop();
    await app?.stop();
  });

  const tenants = (baseUrl: string, forwardedFor: string) =>
    fetch(`${baseUrl}/v1/tenants`, {
      headers: { authorization: `Bearer ${allowed.secret}`, 'x-forwarded-for': forwardedFor },
    });

  it('takes the client address from X-Forwarded-For sent by a trusted proxy (API key allowlists)', async () => {
    expect((await tenants(behindProxy.baseUrl, '203.0.113.7')).status).toBe(200);
    const refused = await tenants(behindProxy.baseUrl, '203.0.113.8');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Envelope).error).toMatchObject({
      code: 'FORBIDDEN',
      details: { ip: '203.0.113.8' },
    });
    // A client cannot pass itself off through a trusted proxy: the proxy appends the address it saw,
    // and the rightmost untrusted entry is the client.
    expect((await tenants(behindProxy.baseUrl, '203.0.113.7, 198.51.100.9')).status).toBe(403);
  });

  it('applies to GraphQL subscriptions too: the upgrade request is read like any other', async () => {
    const params = { authorization: `Bearer ${allowed.secret}` };
    const admitted = connect(behindProxy.baseUrl, params, { 'x-forwarded-for': '203.0.113.7' });
    const refused = connect(behindProxy.baseUrl, params, { 'x-forwarded-for': '203.0.113.8' });
    try {
      expect(await admitted.acknowledged()).toBeDefined();
      expect((await refused.closed()).code).toBe(4403);
    } finally {
      await Promise.all([admitted.close(), refused.close()]);
    }
  });

  it('ignores X-Forwarded-For by default (TRUST_PROXY unset): the connecting address is the client', async () => {
    const res = await tenants(app.baseUrl, '203.0.113.7');
    expect(res.status).toBe(403);
    expect(((await res.json()) as Envelope).error?.details).toMatchObject({ ip: '127.0.0.1' });
  });
});
