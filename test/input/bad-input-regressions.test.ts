import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { expectEnvelope, expectInvalid, rowCount, tableHash } from './input-kit.js';

/** One regression test per root cause of issue #18 and the input part of #9 item 8 (docs/api.md). */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let userId: string;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  userId = (await createUser(app, tenant)).id;
});
afterAll(() => app.stop());

const newUser = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  userPrincipalName: `ada.${randomUUID().slice(0, 6)}@${tenant.domain}`,
  ...extra,
});
const tenantHeader = () => ({ 'X-Tenant-Id': tenant.id });

describe('NUL and lone surrogates in any string (#18.1)', () => {
  it.each([
    ['a NUL', 'Ada\u0000'],
    ['a lone high surrogate', 'Ada\ud800'],
    ['a lone low surrogate', '\udfffAda'],
  ])('refuses %s in a REST body field with 400 naming it, writing nothing', async (_name, value) => {
    const before = await tableHash(app, 'users');
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser({ jobTitle: value }),
    });
    expectInvalid(res, 'jobTitle');
    expect(await tableHash(app, 'users')).toBe(before);
  });

  it('refuses them in a PATCH, a query parameter and a nested object key', async () => {
    const patch = await app.request<Envelope>('PATCH', `/v1/tenants/${tenant.id}/users/${userId}`, {
      key: org.keys.write,
      body: { department: 'Sales\u0000' },
    });
    expectInvalid(patch, 'department');
    const search = await app.request<Envelope>('GET', '/api/identity/contacts?search=a%00b', {
      key: org.keys.read,
      headers: tenantHeader(),
    });
    expectInvalid(search, 'search');
    const key = await app.request<Envelope>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { url: 'https://example.com/hook', events: ['*'], headers: { 'X-A\u0000': 'b' } },
    });
    expectInvalid(key, 'headers.X-A\u0000');
  });

  it('refuses a NUL in a CSV cell naming the body and its line, importing nothing', async () => {
    const before = await rowCount(app, 'contacts');
    const csv = 'DisplayName,EmailAddress,FirstName,LastName\nAda,ada@example.com,Ada,L\u0000ovelace\n';
    const res = await app.request<Envelope>('POST', '/api/identity/contacts/bulk', {
      key: org.keys.write,
      rawBody: csv,
      headers: { ...tenantHeader(), 'content-type': 'text/csv' },
    });
    expectInvalid(res, 'csv');
    expect(res.body.error?.details.fields).toEqual([
      { field: 'csv', problem: 'must not contain a NUL character (U+0000) at line 2' },
    ]);
    expect(await rowCount(app, 'contacts')).toBe(before);
  });

  it('refuses them in GraphQL variables and literals with INVALID_REQUEST naming the field', async () => {
    const before = await tableHash(app, 'users');
    const variables = await app.graphql(
      org.keys.write,
      'mutation($t: UUID!, $input: CreateUserInput!) { createUser(tenantId: $t, input: $input) { id } }',
      { t: tenant.id, input: newUser({ displayName: 'x\ud800' }) },
    );
    expect(variables.status).toBe(400);
    expect(variables.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'input.displayName', problem: expect.stringMatching(/surrogate/) }] },
    });
    const literal = await app.graphql(
      org.keys.write,
      `mutation { createUser(tenantId: "${tenant.id}", input: { firstName: "A\\u0000", lastName: "B",
        userPrincipalName: "b@${tenant.domain}" }) { id } }`,
    );
    expect(literal.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'input.firstName', problem: expect.stringMatching(/NUL/) }] },
    });
    expect(await tableHash(app, 'users')).toBe(before);
  });
});

describe('malformed percent-encoding in a path (#18.2)', () => {
  it.each([
    '/v1/tenants/%ff',
    '/v1/tenants/%ED%A0%80/users',
    '/v1/tenants/%',
    '/api/settings/integrations/%zz',
  ])('answers %s with a 404 envelope', async (path) => {
    const method = path.includes('integrations') ? 'DELETE' : 'GET';
    const res = await app.request<Envelope>(method, path, { key: org.keys.admin });
    expectEnvelope(res, 404, 'NOT_FOUND');
  });
});

describe('Content-Encoding (#18.3)', () => {
  it('refuses gzip or br on a body that is not compressed with a 400 envelope, writing nothing', async () => {
    const before = await tableHash(app, 'users');
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/users`, {
        key: org.keys.write,
        body: newUser(),
        headers: { 'content-encoding': encoding },
      });
      expectInvalid(res, 'body');
    }
    const unknown = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser(),
      headers: { 'content-encoding': 'compress' },
    });
    expectInvalid(unknown, 'Content-Encoding');
    expect(await tableHash(app, 'users')).toBe(before);
  });

  it('reads a gzip-compressed JSON body (compressed requests are supported)', async () => {
    const response = await fetch(`${app.baseUrl}/v1/tenants/${tenant.id}/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${org.keys.write}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify(newUser())),
    });
    expect(response.status).toBe(201);
  });
});

describe('every error in the envelope, and small (#18.4)', () => {
  it('answers a URL over the documented 8 KiB limit with a 400 envelope naming url', async () => {
    const res = await app.request<Envelope>('GET', `/v1/tenants?pad=${'x'.repeat(9 * 1024)}`, {
      key: org.keys.read,
    });
    expectInvalid(res, 'url');
  });

  it("answers what Node's HTTP parser refuses (URL and headers over 16 KiB) in the envelope", async () => {
    const res = await app.request<Envelope>('GET', `/v1/tenants?pad=${'x'.repeat(17 * 1024)}`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
  });

  it('reports the first 20 problems of a 10,000-item list and how many there were', async () => {
    const res = await app.request<Envelope>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { url: 'https://example.com/hook', events: Array.from({ length: 10_000 }, (_, i) => i) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toHaveLength(20);
    expect(res.body.error?.details.problemCount).toBe(10_000);
    expect(JSON.stringify(res.body).length).toBeLessThan(8 * 1024);
  });
});

describe('ids are strict (#18.6)', () => {
  it('refuses {uuid} in a path and in X-Tenant-Id (404, as any id that cannot exist)', async () => {
    const path = await app.request<Envelope>('GET', `/v1/tenants/{${tenant.id}}`, { key: org.keys.read });
    expectEnvelope(path, 404, 'NOT_FOUND');
    const header = await app.request<Envelope>('GET', '/api/identity/contacts', {
      key: org.keys.read,
      headers: { 'X-Tenant-Id': `{${tenant.id}}` },
    });
    expectEnvelope(header, 404, 'NOT_FOUND');
    const graphql = await app.graphql(org.keys.read, `{ tenant(id: "{${tenant.id}}") { id } }`);
    expect(graphql.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });

  it('reads upper-case digits as the same id and answers in lower case', async () => {
    const res = await app.request<Envelope<{ id: string }>>('GET', `/v1/tenants/${tenant.id.toUpperCase()}`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(tenant.id);
  });
});

describe('request shape (#9.8): content type, query parameters', () => {
  it('refuses a JSON route called with another Content-Type instead of dropping the body', async () => {
    const before = await tableHash(app, 'users');
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await app.request<Envelope>('PATCH', `/v1/tenants/${tenant.id}/users/${userId}`, {
        key: org.keys.write,
        rawBody: JSON.stringify({ department: 'Changed' }),
        headers: { 'content-type': contentType },
      });
      expectInvalid(res, 'Content-Type');
    }
    expect(await tableHash(app, 'users')).toBe(before);
  });

  it('refuses a body sent to a route that takes none', async () => {
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/sync`, {
      key: org.keys.admin,
      body: { force: true },
    });
    expectInvalid(res, 'body');
  });

  it.each([
    ['limit=1&limit=2', 'limit'],
    ['limit[]=1', 'limit'],
    ['limit[a]=1', 'limit'],
    ['limit=', 'limit'],
    ['page=', 'page'],
    ['sort=name', 'sort'],
  ])('refuses ?%s naming %s', async (query, field) => {
    const res = await app.request<Envelope>('GET', `/v1/tenants?${query}`, { key: org.keys.read });
    expectInvalid(res, field);
  });

  it('still reads declared parameters and tenantId given once', async () => {
    const res = await app.request<Envelope>(
      'GET',
      `/api/identity/contacts?limit=5&tenantId=${tenant.id}&search=`,
      {
        key: org.keys.read,
      },
    );
    expect(res.status).toBe(200);
  });
});

describe('issue #32 item 9: the fuzzer’s 500s', () => {
  it.each([
    ['an array 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['an array 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an object 10,000 deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['101 levels under a field', `{"firstName":${'['.repeat(101)}${']'.repeat(101)}}`],
  ])('refuses %s with 400 naming body before parsing it, writing nothing', async (_name, raw) => {
    const before = await tableHash(app, 'users');
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expectInvalid(res, 'body');
    expect(await tableHash(app, 'users')).toBe(before);
    const graphql = await app.request<{ errors?: Array<{ extensions: { code: string } }> }>(
      'POST',
      '/graphql',
      {
        key: org.keys.write,
        rawBody: `{"query":"{ tenants { items { id } } }","variables":${raw}}`,
        headers: { 'content-type': 'application/json' },
      },
    );
    expect(graphql.status).toBe(400);
    expect(graphql.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });

  it('keeps a body whose strings are full of brackets (only structure counts)', async () => {
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      rawBody: JSON.stringify(newUser({ jobTitle: '['.repeat(101) + '\\"{' })),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
  });

  it('refuses "dryRun": null and "notifyAdmins": null on a recommendation apply with 400 naming them', async () => {
    for (const field of ['dryRun', 'notifyAdmins']) {
      const res = await app.request<Envelope>('POST', '/api/security/recommendations/mfa-admin-roles/apply', {
        key: org.keys.write,
        body: { [field]: null },
      });
      expectInvalid(res, field);
    }
  });
});
