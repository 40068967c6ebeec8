import { PermissionLevel } from '../../src/core/permissions.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import type { Envelope } from '../helpers/envelope.js';
import {
  createApiKey,
  createOrganizationWithKeys,
  type OrganizationWithKeys,
  createTenant,
} from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a key that does not exist', 'svc_sk_test_' + 'x'.repeat(43)],
    ['a token of an unknown kind', 'not-a-key'],
  ])('answers 401 UNAUTHORIZED for %s, with rate-limit headers', async (_case, key) => {
    const res = await app.request<Envelope>('GET', '/v1/tenants', { key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: expect.any(String), details: {} },
    });
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('answers 401 in the GraphQL shape on /graphql', async () => {
    const res = await app.graphql(undefined, '{ tenants { items { id } } }');
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions.code).toBe('UNAUTHORIZED');
  });

  it('shows Apollo Sandbox to a browser on GET /graphql without a key', async () => {
    const res = await app.request<string>('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<html');
  });

  it('refuses a revoked key at once (401)', async () => {
    const key = await createApiKey(app, org.scope, PermissionLevel.READ);
    expect((await app.request('GET', '/v1/tenants', { key: key.secret })).status).toBe(200);
    const revoked = await app.graphql(
      org.keys.admin,
      'mutation($id: UUID!) { revokeApiKey(id: $id) { revokedAt } }',
      {
        id: key.id,
      },
    );
    expect(revoked.body.errors).toBeUndefined();
    // This process forgot the key before answering: the very next request is refused, no waiting.
    expect((await app.request('GET', '/v1/tenants', { key: key.secret })).status).toBe(401);
  });

  it('keeps sandbox (test) keys away from live data and live keys away from sandbox data', async () => {
    const live = await createTenant(app, org.liveScope);
    const sandbox = await createTenant(app, org.scope);
    expect((await app.request('GET', `/v1/tenants/${live.id}`, { key: org.keys.admin })).status).toBe(404);
    expect((await app.request('GET', `/v1/tenants/${sandbox.id}`, { key: org.liveAdminKey })).status).toBe(
      404,
    );
    expect((await app.request('GET', `/v1/tenants/${live.id}`, { key: org.liveAdminKey })).status).toBe(200);
  });
});

describe('IP allowlist (enterprise plan)', () => {
  it('lets the allowed address in and refuses others with 403', async () => {
    const enterprise = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM });
    const allowed = await createApiKey(app, enterprise.scope, PermissionLevel.READ, {
      allowedIps: ['127.0.0.1'],
    });
    const elsewhere = await createApiKey(app, enterprise.scope, PermissionLevel.READ, {
      allowedIps: ['10.1.2.0/24'],
    });
    expect((await app.request('GET', '/v1/tenants', { key: allowed.secret })).status).toBe(200);
    const refused = await app.request<Envelope>('GET', '/v1/tenants', { key: elsewhere.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('FORBIDDEN');
  });

  it('is refused below the enterprise plan (400 naming allowedIps)', async () => {
    const res = await app.graphql(
      org.keys.admin,
      'mutation { createApiKey(input: { name: "ci", level: READ, allowedIps: ["127.0.0.1"] }) { secret } }',
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [expect.objectContaining({ field: 'allowedIps' })] },
    });
  });
});
