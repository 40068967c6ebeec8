import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import type { OrganizationWithKeys } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  // The shared server takes JSON bodies up to 1 MiB, as TestApp's default and the server's (config.ts).
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
});
afterAll(() => app.stop());

/** The tenant's sync runs, which the refused requests would have started. */
async function syncCount(): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from tenant_syncs where tenant_id = $1',
    [tenant.id],
  );
  return rows[0].n;
}

describe('requests the service cannot read', () => {
  it('answers malformed JSON with a 400 envelope naming the body, and writes nothing', async () => {
    const before = await syncCount();
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/sync`, {
      key: org.keys.admin,
      rawBody: '{"a":',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [expect.objectContaining({ field: 'body' })] },
    });
    expect(await syncCount()).toBe(before);
  });

  it('answers a body over 1 MiB with a 400 envelope, and writes nothing', async () => {
    const before = await syncCount();
    const res = await app.request<Envelope>('POST', `/v1/tenants/${tenant.id}/sync`, {
      key: org.keys.admin,
      body: { padding: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/larger than/);
    expect(await syncCount()).toBe(before);
  });

  it('answers unknown paths and methods with a 404 envelope', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['PUT', '/v1/tenants'],
      ['GET', '/api/nothing-here'],
    ]) {
      const res = await app.request<Envelope>(method, path, { key: org.keys.read });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('answers a GraphQL document that does not fit the schema with INVALID_REQUEST', async () => {
    const res = await app.graphql(org.keys.read, '{ tenants { nope } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    const syntax = await app.graphql(org.keys.read, '{ tenants { ');
    expect(syntax.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });

  it('answers wrongly typed GraphQL variables with INVALID_REQUEST', async () => {
    const res = await app.graphql(
      org.keys.read,
      'query($limit: Int) { tenants(limit: $limit) { items { id } } }',
      { limit: 'ten' },
    );
    expect(res.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
  });
});

describe('health', () => {
  it('answers live and ready without credentials or rate-limit headers', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const res = await app.request<{ status: string }>('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});
