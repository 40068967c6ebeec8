import { JobStatus } from '../../src/core/job-status.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import type { DataOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';

interface Envelope<T> {
  success: boolean;
  data: T;
  meta?: { page: number; limit: number; total: number };
  error?: { code: string; message: string; details: Record<string, unknown> };
}
type TenantBody = DataOf<'getTenant'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ jobs: true, other: true }));
  for (let i = 0; i < 30; i++) {
    await createTenant(app, org.scope, {
      name: `Tenant ${String(i).padStart(2, '0')}`,
      createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
    });
  }
  await createTenant(app, org.liveScope, { name: 'Live only' });
  await createTenant(app, other.scope, { name: 'Someone else' });
});
afterAll(() => app.stop());

describe('GET /v1/tenants', () => {
  it('lists newest first with the default page size and the meta of SPEC 8.2', async () => {
    const res = await app.request<Envelope<TenantBody[]>>('GET', '/v1/tenants', { key: org.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 30 });
    expect(res.body.data).toHaveLength(25);
    expect(res.body.data[0]).toMatchObject({ name: 'Tenant 29', status: 'active', health: 'healthy' });
    expect(Object.keys(res.body.data[0])).toEqual(
      expect.arrayContaining(['id', 'name', 'domain', 'status', 'health', 'lastSyncedAt', 'createdAt']),
    );
  });

  it('pages, and a page past the end is empty with the true total', async () => {
    const second = await app.request<Envelope<TenantBody[]>>('GET', '/v1/tenants?page=2&limit=25', {
      key: org.keys.read,
    });
    expect(second.body.data.map((t) => t.name)).toEqual([
      'Tenant 04',
      'Tenant 03',
      'Tenant 02',
      'Tenant 01',
      'Tenant 00',
    ]);
    const past = await app.request<Envelope<TenantBody[]>>('GET', '/v1/tenants?page=9', {
      key: org.keys.read,
    });
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toEqual({ page: 9, limit: 25, total: 30 });
  });

  it.each([
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['page=0', 'page'],
    ['limit=abc', 'limit'],
    ['page=1.5', 'page'],
  ])('refuses %s with 400 naming the field', async (query, field) => {
    const res = await app.request<Envelope<unknown>>('GET', `/v1/tenants?${query}`, { key: org.keys.read });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field })]),
    );
  });

  it('keeps environments apart: a live key sees only live tenants', async () => {
    const res = await app.request<Envelope<TenantBody[]>>('GET', '/v1/tenants', { key: org.liveAdminKey });
    expect(res.body.data.map((t) => t.name)).toEqual(['Live only']);
  });
});

describe('GET /v1/tenants/:id', () => {
  it('returns the tenant', async () => {
    const tenant = await createTenant(app, org.scope, { name: 'Details Ltd', lastSyncedAt: null });
    const res = await app.request<Envelope<TenantBody>>('GET', `/v1/tenants/${tenant.id}`, {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: tenant.id,
      name: 'Details Ltd',
      health: 'critical',
      lastSyncedAt: null,
    });
  });

  it('answers 404 for a tenant of another organization, another environment, or an id that is not a UUID', async () => {
    const foreign = await createTenant(app, other.scope);
    const live = await createTenant(app, org.liveScope);
    for (const path of [`/v1/tenants/${foreign.id}`, `/v1/tenants/${live.id}`, '/v1/tenants/not-a-uuid']) {
      const res = await app.request<Envelope<unknown>>('GET', path, { key: org.keys.admin });
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
  });
});

describe('POST /v1/tenants/:id/sync', () => {
  it('starts a sync job (202) that runs to completion on the job queue', async () => {
    const tenant = await createTenant(app, org.scope, { lastSyncedAt: null });
    const res = await app.request<Envelope<{ id: string; status: string; tenantId: string }>>(
      'POST',
      `/v1/tenants/${tenant.id}/sync`,
      { key: org.keys.write },
    );
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ tenantId: tenant.id, status: JobStatus.QUEUED });
    // Polled through the API: GET /v1/tenants/:id/syncs/:syncId follows the job to its end.
    await eventually(
      async () => {
        const poll = await app.request<Envelope<{ status: string; progress: number }>>(
          'GET',
          `/v1/tenants/${tenant.id}/syncs/${res.body.data.id}`,
          { key: org.keys.read },
        );
        expect(poll.body.data.status).toBe(JobStatus.COMPLETED);
      },
      { interval: 50, what: 'the sync to complete' },
    );
    const after = await app.request<Envelope<TenantBody>>('GET', `/v1/tenants/${tenant.id}`, {
      key: org.keys.read,
    });
    expect(after.body.data.lastSyncedAt).toBe(app.clock.now().toISOString());
  });

  it('needs a Write key (Read → 403) and hides other organizations (404)', async () => {
    const tenant = await createTenant(app, org.scope);
    const readOnly = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/sync`, {
      key: org.keys.read,
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error?.code).toBe('FORBIDDEN');
    const foreign = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/sync`, {
      key: other.keys.admin,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('GraphQL tenants', () => {
  it('serves the same list with UPPER_SNAKE enums and pageInfo', async () => {
    const res = await app.graphql<{
      tenants: { items: Array<{ name: string; health: string; status: string }>; pageInfo: unknown };
    }>(
      org.keys.read,
      'query($limit: Int) { tenants(limit: $limit) { items { name health status } pageInfo { page limit total } } }',
      { limit: 2 },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.tenants.pageInfo).toEqual({ page: 1, limit: 2, total: expect.any(Number) });
    expect(res.body.data?.tenants.items[0]).toMatchObject({
      health: expect.stringMatching(/^(HEALTHY|WARNING|CRITICAL)$/),
      status: 'ACTIVE',
    });
  });

  it('gives INVALID_REQUEST for limit=101 and NOT_FOUND for a foreign tenant', async () => {
    const tooMany = await app.graphql(org.keys.read, '{ tenants(limit: 101) { items { id } } }');
    expect(tooMany.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    const foreign = await createTenant(app, other.scope);
    const res = await app.graphql(org.keys.read, 'query($id: UUID!) { tenant(id: $id) { id } }', {
      id: foreign.id,
    });
    expect(res.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
