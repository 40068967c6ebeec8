import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  connectorApi,
  connectorSources,
  createConnector,
  slack,
  type ConnectorBody,
} from './compliance-kit.js';

/**
 * PUT /api/compliance/connectors/:id edges: an empty body is a no-op that writes nothing, and a source that
 * is down is an upstream outage (503 SERVICE_UNAVAILABLE), not the client's credentials (400).
 */

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite({ jobs: true })));
afterAll(() => app.stop());

const put = (tenant: Tenant, id: string, body: unknown) =>
  connectorApi<ConnectorBody>(app, 'PUT', `/${id}`, { key: org.keys.write, tenantId: tenant.id, body });

/** What a no-op must leave alone: the row as stored, and the connector's events. */
async function stored(id: string): Promise<{ row: string; events: number }> {
  const row = await app.pool.query<{ row: string }>(
    'select to_jsonb(c)::text as row from compliance_connectors c where id = $1',
    [id],
  );
  const events = await app.pool.query<{ n: number }>(
    `select count(*)::int as n from domain_events where payload->'details'->>'connectorId' = $1`,
    [id],
  );
  return { row: row.rows[0].row, events: events.rows[0].n };
}

describe('PUT with nothing to change', () => {
  it('REST {}: 200 with the connector as it is, nothing written (updatedAt kept), no event', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    const before = await stored(created.id);
    app.clock.advance(60_000); // a write would move updatedAt
    try {
      const res = await put(tenant, created.id, {});
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: created.id, updatedAt: created.updatedAt, status: 'Active' });
      expect(await stored(created.id)).toEqual(before);
    } finally {
      app.clock.advance(-60_000);
    }
  });

  it('GraphQL input {}: the same no-op; still 404 for an unknown connector and 403 for a Read key', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    const before = await stored(created.id);
    const res = await app.graphql<{ updateComplianceConnector: { updatedAt: string } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { updateComplianceConnector(tenantId: $t, id: $id, input: {}) { updatedAt } }`,
      { t: tenant.id, id: created.id },
    );
    expect(res.body.data?.updateComplianceConnector.updatedAt).toBe(created.updatedAt);
    expect(await stored(created.id)).toEqual(before);
    expect((await put(tenant, '00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    const read = await connectorApi(app, 'PUT', `/${created.id}`, {
      key: org.keys.read,
      tenantId: tenant.id,
      body: {},
    });
    expect(read.status).toBe(403);
  });
});

describe('a source that is down', () => {
  const OUTAGE = 'Slack API 503 maintenance';

  it('resume: 503 SERVICE_UNAVAILABLE with Retry-After and the source, the connector stays Paused', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    expect((await put(tenant, created.id, { action: 'Pause' })).status).toBe(200);
    await connectorSources(app).injectFault(tenant.externalId, 'Slack', OUTAGE, 'unavailable');
    try {
      const before = await stored(created.id);
      const res = await put(tenant, created.id, { action: 'Resume' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(res.body.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining(OUTAGE),
        details: { source: 'Slack', reason: OUTAGE, retryAfterSeconds: 60 },
      });
      expect(await stored(created.id)).toEqual(before);

      const graphql = await app.graphql(
        org.keys.write,
        `mutation($t: UUID!, $id: UUID!) { updateComplianceConnector(tenantId: $t, id: $id, input: { action: RESUME }) { id } }`,
        { t: tenant.id, id: created.id },
      );
      expect(graphql.status).toBe(503);
      expect(graphql.body.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await connectorSources(app).injectFault(tenant.externalId, 'Slack', null);
    }
    expect((await put(tenant, created.id, { action: 'Resume' })).body.data.status).toBe('Active');
  });

  it('create and reconfigure: 503 as well, nothing written', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    await connectorSources(app).injectFault(tenant.externalId, 'Slack', OUTAGE, 'unavailable');
    try {
      const before = await stored(created.id);
      expect((await put(tenant, created.id, { name: 'Renamed' })).status).toBe(503);
      expect(await stored(created.id)).toEqual(before);
      const create = await connectorApi(app, 'POST', '', {
        key: org.keys.write,
        tenantId: tenant.id,
        body: slack({ name: 'Second' }),
      });
      expect(create.status).toBe(503);
      const { rows } = await app.pool.query<{ n: number }>(
        'select count(*)::int as n from compliance_connectors where tenant_id = $1',
        [tenant.id],
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await connectorSources(app).injectFault(tenant.externalId, 'Slack', null);
    }
  });

  it('a source that refuses the credentials is still 400 naming credentials', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    expect((await put(tenant, created.id, { action: 'Pause' })).status).toBe(200);
    await connectorSources(app).injectFault(tenant.externalId, 'Slack', 'Slack: token revoked');
    try {
      const res = await put(tenant, created.id, { action: 'Resume' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: { fields: [{ field: 'credentials', problem: 'Slack: token revoked' }] },
      });
    } finally {
      await connectorSources(app).injectFault(tenant.externalId, 'Slack', null);
    }
  });
});
