import { isNonPublicAddress } from '../../src/webhooks/webhook-url.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

describe('HTTP hygiene (issue #9 item 8)', () => {
  it('marks every API response no-store and nosniff, errors and GraphQL included', async () => {
    const responses = [
      await app.request('GET', '/v1/tenants', { key: org.keys.read }),
      await app.request('GET', '/v1/tenants'),
      await app.request('POST', '/api/settings/api-keys', {
        key: org.keys.admin,
        body: { name: 'Once', level: 'Read' },
      }),
      await app.graphql(org.keys.read, '{ tenants { pageInfo { total } } }'),
    ];
    for (const res of responses) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it("answers OPTIONS with the JSON error envelope, not Express's plain-text method list (SPEC 2.1)", async () => {
    for (const [path, key] of [
      ['/v1/tenants', org.keys.admin],
      ['/api/msp-portal/tenants/stats', org.keys.read],
      ['/graphql', org.keys.read],
      ['/health/live', undefined],
      ['/v1/tenants', undefined],
    ] as const) {
      const res = await app.request<Envelope & { errors?: Array<{ extensions: { code: string } }> }>(
        'OPTIONS',
        path,
        { key },
      );
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 404,
        type: 'application/json; charset=utf-8',
      });
      // /graphql answers errors in GraphQL's own shape (docs/api.md), the rest in the REST envelope.
      const code = res.body.error?.code ?? res.body.errors?.[0].extensions.code;
      expect({ path, code }).toEqual({ path, code: 'NOT_FOUND' });
    }
  });

  it('names the Bearer scheme on a 401', async () => {
    const res = await app.request('GET', '/v1/tenants');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('webhook targets: IPv6 forms embedding IPv4 (issue #9 item 8)', () => {
  it.each([
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-mapped metadata service', '::ffff:169.254.169.254'],
    ['6to4 of 127.0.0.1', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['NAT64 well-known prefix', '64:ff9b::7f00:1'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
  ])('refuses %s (%s)', (_case, address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['2606:4700:4700::1111', '8.8.8.8'])('lets a public address through (%s)', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('refuses such a URL when a webhook is created (400 naming url)', async () => {
    const res = await app.request<Envelope>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { url: 'http://[::7f00:1]/hook', events: ['user.*'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([{ field: 'url', problem: expect.any(String) }]);
  });
});
