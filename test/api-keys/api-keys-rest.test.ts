import { Permission } from '../../src/core/permissions.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import {
  createMember,
  createOAuthClient,
  createOrganizationWithKeys,
  issueAccessToken,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp } from '../helpers/realm-suite.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

type KeyBody = ItemOf<'listApiKeys'>;

function createKey(key: string, body: unknown, base = '/api') {
  return app.request<Envelope<DataOf<'createApiKey'>>>('POST', `${base}/settings/api-keys`, {
    key,
    body,
  });
}

describe('API key management over REST (settings area)', () => {
  it('creates a key shown once (201), lists it with prefix and last four, revokes it: next request 401', async () => {
    const created = await createKey(org.keys.admin, { name: 'PSA sync', level: 'Write' });
    expect(created.status).toBe(201);
    const { apiKey, secret } = created.body.data;
    expect(secret).toMatch(/^svc_sk_test_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({
      name: 'PSA sync',
      level: 'Write',
      prefix: 'svc_sk_test_',
      lastFour: secret.slice(-4),
      revokedAt: null,
    });
    expect((await app.request('GET', '/v1/tenants', { key: secret })).status).toBe(200);

    const listed = await app.request<Envelope<KeyBody[]>>('GET', '/api/settings/api-keys?limit=100', {
      key: org.keys.admin,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ page: 1, limit: 100, total: listed.body.data.length });
    expect(listed.body.data.find((k) => k.id === apiKey.id)).toMatchObject({ lastFour: secret.slice(-4) });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const revoked = await app.request<Envelope<KeyBody>>('DELETE', `/api/settings/api-keys/${apiKey.id}`, {
      key: org.keys.admin,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toBe(app.clock.now().toISOString());
    // Forgotten by this process before the answer: the very next request is refused.
    expect((await app.request('GET', '/v1/tenants', { key: secret })).status).toBe(401);
  });

  it('is also served under /v1/api', async () => {
    const created = await createKey(org.keys.admin, { name: 'v1 path', level: 'Read' }, '/v1/api');
    expect(created.status).toBe(201);
  });

  it.each(['read', 'write'] as const)('refuses every key operation to a %s key (403)', async (level) => {
    const key = org.keys[level];
    expect((await app.request('GET', '/api/settings/api-keys', { key })).status).toBe(403);
    expect((await createKey(key, { name: 'x', level: 'Admin' })).status).toBe(403);
    const some = (await createKey(org.keys.admin, { name: 'target', level: 'Read' })).body.data.apiKey;
    const res = await app.request<Envelope>('DELETE', `/api/settings/api-keys/${some.id}`, { key });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { required: 'Admin', level: level === 'read' ? 'Read' : 'Write' },
    });
  });

  it('lets an access token with the admin scope manage keys, and names the scope to others', async () => {
    const client = await createOAuthClient(app, org.scope);
    const member = await createMember(app, org.organization.id);
    const admin = await issueAccessToken(app, client, member, [Permission.ADMIN]);
    expect((await createKey(admin, { name: 'via OAuth', level: 'Read' })).status).toBe(201);
    const writer = await issueAccessToken(app, client, member, [Permission.WRITE_TENANTS]);
    const refused = await app.request<Envelope>('GET', '/api/settings/api-keys', { key: writer });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.details).toMatchObject({ required: 'admin' });
  });

  it('answers bad input with 400 naming the field', async () => {
    const badLevel = await createKey(org.keys.admin, { name: 'x', level: 'Owner' });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'level' })]);
    const unknownField = await createKey(org.keys.admin, { name: 'x', level: 'Read', colour: 'blue' });
    expect(unknownField.status).toBe(400);
    const blank = await createKey(org.keys.admin, { name: '', level: 'Read' });
    expect(blank.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it("answers 404 for another organization's key, and for an id that is not a UUID", async () => {
    const other = await createOrganizationWithKeys(app);
    const theirs = (await createKey(other.keys.admin, { name: 'theirs', level: 'Read' })).body.data;
    expect(
      (await app.request('DELETE', `/api/settings/api-keys/${theirs.apiKey.id}`, { key: org.keys.admin }))
        .status,
    ).toBe(404);
    expect((await app.request('GET', '/v1/tenants', { key: theirs.secret })).status).toBe(200);
    expect(
      (await app.request('DELETE', '/api/settings/api-keys/not-a-uuid', { key: org.keys.admin })).status,
    ).toBe(404);
  });

  it('creates enterprise keys with an IP allowlist; a request from elsewhere gets 403', async () => {
    const enterprise = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM });
    const created = await createKey(enterprise.keys.admin, {
      name: 'office only',
      level: 'Read',
      allowedIps: ['10.20.0.0/16'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.apiKey.allowedIps).toEqual(['10.20.0.0/16']);
    const res = await app.request<Envelope>('GET', '/v1/tenants', { key: created.body.data.secret });
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('FORBIDDEN');
  });
});

describe('changing a key (PATCH /api/settings/api-keys/:id)', () => {
  const patch = (key: string, id: string, body: unknown) =>
    app.request<Envelope<KeyBody>>('PATCH', `/api/settings/api-keys/${id}`, { key, body });

  it('renames a key and replaces its allowlist, applied to the very next request', async () => {
    const enterprise = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM });
    const created = (await createKey(enterprise.keys.admin, { name: 'office', level: 'Read' })).body.data;
    expect((await app.request('GET', '/v1/tenants', { key: created.secret })).status).toBe(200);

    const narrowed = await patch(enterprise.keys.admin, created.apiKey.id, {
      name: ' branch office ',
      allowedIps: ['10.20.0.0/16'],
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data).toMatchObject({
      name: 'branch office',
      allowedIps: ['10.20.0.0/16'],
      level: 'Read',
    });
    expect((await app.request('GET', '/v1/tenants', { key: created.secret })).status).toBe(403);

    const opened = await patch(enterprise.keys.admin, created.apiKey.id, { allowedIps: [] });
    expect(opened.body.data).toMatchObject({ name: 'branch office', allowedIps: [] });
    expect((await app.request('GET', '/v1/tenants', { key: created.secret })).status).toBe(200);
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const created = (await createKey(org.keys.admin, { name: 'psa', level: 'Write' })).body.data;
    for (const [body, field] of [
      [{ allowedIps: ['10.0.0.0/8'] }, 'allowedIps'], // not an enterprise organization
      [{ allowedIps: ['not-an-ip'] }, 'allowedIps'],
      [{ name: '' }, 'name'],
      [{ level: 'Admin' }, 'level'], // a key's rights cannot change
    ] as const) {
      const res = await patch(org.keys.admin, created.apiKey.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field })]);
    }
    const list = await app.request<Envelope<KeyBody[]>>('GET', '/api/settings/api-keys?limit=100', {
      key: org.keys.admin,
    });
    expect(list.body.data.find((key) => key.id === created.apiKey.id)).toMatchObject({
      name: 'psa',
      level: 'Write',
      allowedIps: [],
    });
  });

  it('is Admin only, 404 across organizations, 409 for a revoked key', async () => {
    const created = (await createKey(org.keys.admin, { name: 'to revoke', level: 'Read' })).body.data;
    expect((await patch(org.keys.write, created.apiKey.id, { name: 'x' })).status).toBe(403);
    const other = await createOrganizationWithKeys(app);
    expect((await patch(other.keys.admin, created.apiKey.id, { name: 'x' })).status).toBe(404);
    await app.request('DELETE', `/api/settings/api-keys/${created.apiKey.id}`, { key: org.keys.admin });
    const revoked = await patch(org.keys.admin, created.apiKey.id, { name: 'x' });
    expect(revoked.status).toBe(409);
    expect(revoked.body.error?.code).toBe('CONFLICT');
  });
});

describe('revocation reaches the revoking server without NOTIFY', () => {
  it('forgets the key in the server that revoked it, synchronously, even with no NOTIFY arriving', async () => {
    // A second server whose LISTEN connection is on another database: no NOTIFY ever reaches it, so only
    // the revocation path itself can drop the key from its cache (which would otherwise keep it for 5 s).
    // It serves the shared server's database, built in the worker's realm (realm-server.ts).
    const deaf = await realmApp({
      databaseUrl: app.databaseUrl,
      listenerDatabaseUrl: await onServer(app, 'createDatabase'),
    });
    try {
      const request = (method: string, path: string, key: string) =>
        fetch(deaf.baseUrl + path, { method, headers: { authorization: `Bearer ${key}` } });
      const { apiKey, secret } = (await createKey(org.keys.admin, { name: 'cached', level: 'Read' })).body
        .data;
      expect((await request('GET', '/v1/tenants', secret)).status).toBe(200); // now in its cache
      expect((await request('DELETE', `/api/settings/api-keys/${apiKey.id}`, org.keys.admin)).status).toBe(
        200,
      );
      expect((await request('GET', '/v1/tenants', secret)).status).toBe(401);
    } finally {
      await deaf.stop();
    }
  });
});
