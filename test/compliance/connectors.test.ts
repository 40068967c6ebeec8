import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  connectorApi,
  connectorSources,
  createConnector,
  HOUR,
  runDueImports as runImports,
  SECRET,
  slack,
  type ConnectorBody,
  type RunBody,
  type StatusBody,
} from './compliance-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
/** Every response body seen, to prove the credential never comes back. */
const seen: string[] = [];

beforeAll(async () => ({ app, org, other } = await sharedSuite({ jobs: true, other: true })));
afterAll(() => app.stop());

const call = <T>(method: string, path: string, options: { key: string; tenantId?: string; body?: unknown }) =>
  connectorApi<T>(app, method, path, options, seen);

const connector = (tenant: Tenant, body = slack()): Promise<ConnectorBody> =>
  createConnector(app, org.keys.write, tenant, body, seen);

const cloud = () => ({ connectorSources: connectorSources(app) });

const runDueImports = (tenantId: string, connectorId: string): Promise<RunBody[]> =>
  runImports(app, org.keys.read, tenantId, connectorId, seen);

async function connectorRows(): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from compliance_connectors where organization_id = $1',
    [org.organization.id],
  );
  return rows[0].n;
}

describe('POST and GET /api/compliance/connectors', () => {
  it('creates an Active connector (default schedule 24 h, mapping by email) and never returns the credentials', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    expect(created).toMatchObject({
      tenantId: tenant.id,
      category: 'Communication',
      sourceType: 'Slack',
      status: 'Active',
      scheduleHours: 24,
      credentialFields: ['workspaceUrl', 'apiToken'],
      userMapping: { strategy: 'Email', mappings: [], unmatched: 'Skip', fallbackMailbox: null },
    });
    const list = await call<ConnectorBody[]>('GET', '', { key: org.keys.read, tenantId: tenant.id });
    expect(list.body.data.map((c) => c.id)).toEqual([created.id]);
    const { rows } = await app.pool.query<{ credentials: string }>(
      'select credentials from compliance_connectors where id = $1',
      [created.id],
    );
    expect(rows[0].credentials.startsWith('enc:v1:')).toBe(true);
    expect(rows[0].credentials).not.toContain(SECRET);
  });

  it.each([
    ['a source type of another category', { sourceType: 'Workday' }, 'sourceType'],
    [
      'a missing credential',
      { credentials: { workspaceUrl: 'https://a.slack.com' } },
      'credentials.apiToken',
    ],
    ['a schedule outside 1..168 hours', { scheduleHours: 200 }, 'scheduleHours'],
    ['an empty mapping table', { userMapping: { strategy: 'Mapping table' } }, 'userMapping.mappings'],
    ['an unknown category', { category: 'Gossip' }, 'category'],
    [
      'credentials the source refuses (test connection)',
      { credentials: { workspaceUrl: 'https://acme.slack.com', apiToken: 'invalid-token' } },
      'credentials',
    ],
    // Issue #32 item 7: URL credentials follow the webhook target rule.
    [
      'a cloud metadata address',
      { credentials: { workspaceUrl: 'http://169.254.169.254/latest/meta-data', apiToken: 'xoxb-1' } },
      'credentials.workspaceUrl',
    ],
    [
      'a file URL',
      { credentials: { workspaceUrl: 'file:///etc/passwd', apiToken: 'xoxb-1' } },
      'credentials.workspaceUrl',
    ],
    [
      'a loopback name',
      { credentials: { workspaceUrl: 'http://localhost:5432/', apiToken: 'xoxb-1' } },
      'credentials.workspaceUrl',
    ],
  ])('400 naming the field for %s, nothing written', async (_name, change, field) => {
    const tenant = await createTenant(app, org.scope);
    const before = await connectorRows();
    const res = await call('POST', '', { key: org.keys.write, tenantId: tenant.id, body: slack(change) });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect((res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toContain(field);
    expect(await connectorRows()).toBe(before);
  });

  it('a source type of another category is refused naming the allowed ones, with nothing said of its credentials', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await call('POST', '', {
      key: org.keys.write,
      tenantId: tenant.id,
      body: slack({ sourceType: 'Workday' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      {
        field: 'sourceType',
        problem: expect.stringMatching(/Communication connector imports from one of: .*Slack/),
      },
    ]);
  });

  it('Read keys read but cannot create (403); X-Tenant-Id missing 400; another organization 404', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    expect((await call('POST', '', { key: org.keys.read, tenantId: tenant.id, body: slack() })).status).toBe(
      403,
    );
    expect((await call('GET', '', { key: org.keys.read })).status).toBe(400);
    expect((await call('GET', '', { key: other.keys.read, tenantId: tenant.id })).status).toBe(404);
    expect(
      (await call('GET', `/${created.id}/status`, { key: other.keys.read, tenantId: tenant.id })).status,
    ).toBe(404);
    const foreignTenant = await createTenant(app, other.scope);
    const cross = await app.request('GET', `/api/compliance/connectors/${created.id}/history`, {
      key: other.keys.read,
      headers: { 'X-Tenant-Id': foreignTenant.id },
    });
    expect(cross.status).toBe(404);
  });

  it('lists with a constant number of SQL statements at limit=2 and limit=8', async () => {
    const tenant = await createTenant(app, org.scope);
    for (let i = 0; i < 8; i++) await connector(tenant, slack({ name: `Slack ${i}` }));
    const read = async (limit: number) =>
      expect(
        (await call<unknown[]>('GET', `?limit=${limit}`, { key: org.keys.read, tenantId: tenant.id })).body
          .data,
      ).toHaveLength(limit);
    await read(2);
    const small = await app.sql.during(() => read(2));
    const large = await app.sql.during(() => read(8));
    expect(large).toBe(small);
  });
});

describe('imports by the clock', () => {
  it('runs the first import at once, then again when the clock moves 24 h, recording each run', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    const first = await runDueImports(tenant.id, created.id);
    expect(first).toHaveLength(1);
    expect(await runDueImports(tenant.id, created.id)).toHaveLength(1); // not due again yet
    app.clock.advance(24 * HOUR);
    try {
      const runs = await runDueImports(tenant.id, created.id);
      expect(runs).toHaveLength(2);
      expect(runs[0]).toMatchObject({
        status: 'Succeeded',
        scheduledFor: new Date(Date.parse(first[0].scheduledFor) + 24 * HOUR).toISOString(),
        itemsImported: expect.any(Number),
        durationMs: 0,
      });
      expect(runs[0].itemsImported).toBeGreaterThan(0);
      const status = await call<StatusBody>('GET', `/${created.id}/status`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(status.body.data).toMatchObject({
        status: 'Active',
        health: 'Healthy',
        runs: 2,
        failedRuns: 0,
        lastImportAt: app.clock.now().toISOString(),
        nextRunAt: new Date(app.clock.now().getTime() + 24 * HOUR).toISOString(),
      });
    } finally {
      app.clock.advance(-24 * HOUR);
    }
  });

  it('a schedule set on a new connector does not postpone its first import; later it counts from the last run', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    const put = (scheduleHours: number) =>
      call<ConnectorBody>('PUT', `/${created.id}`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: { scheduleHours },
      });
    expect((await put(12)).status).toBe(200);
    const status = () =>
      call<StatusBody>('GET', `/${created.id}/status`, { key: org.keys.read, tenantId: tenant.id });
    // Still due at once (issue #33 item 10: it was moved to creation + 12 h).
    expect(Date.parse((await status()).body.data.nextRunAt!)).toBeLessThanOrEqual(app.clock.now().getTime());
    const [run] = await runDueImports(tenant.id, created.id);
    expect(run.status).toBe('Succeeded');
    expect((await status()).body.data.nextRunAt).toBe(
      new Date(Date.parse(run.scheduledFor) + 12 * HOUR).toISOString(),
    );
    expect((await put(6)).status).toBe(200);
    expect((await status()).body.data.nextRunAt).toBe(
      new Date(Date.parse(run.scheduledFor) + 6 * HOUR).toISOString(),
    );
  });

  it('three consecutive failed runs pause the connector with the error and emit connector.status_changed', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    await cloud().connectorSources.injectFault(
      tenant.externalId,
      'Slack',
      'Slack: token revoked by the workspace admin',
    );
    const start = app.clock.now().getTime();
    try {
      for (let run = 1; run <= 3; run++) {
        const runs = await runDueImports(tenant.id, created.id);
        expect(runs).toHaveLength(run);
        expect(runs[0]).toMatchObject({
          status: 'Failed',
          failureReason: expect.stringContaining('revoked'),
        });
        const status = await call<StatusBody>('GET', `/${created.id}/status`, {
          key: org.keys.read,
          tenantId: tenant.id,
        });
        expect(status.body.data).toMatchObject(
          run < 3
            ? { status: 'Active', health: 'Degraded', consecutiveFailures: run }
            : {
                status: 'Paused',
                health: 'Error',
                configurationError: expect.stringContaining('revoked'),
                nextRunAt: null,
              },
        );
        app.clock.advance(24 * HOUR);
      }
      expect(await runDueImports(tenant.id, created.id)).toHaveLength(3); // paused: no fourth run
      const { rows } = await app.pool.query<{ details: Record<string, unknown> }>(
        `select payload->'details' as details from domain_events
          where kind = 'connector.status_changed' and payload->'details'->>'connectorId' = $1`,
        [created.id],
      );
      expect(rows.map((row) => row.details)).toEqual([
        expect.objectContaining({
          from: 'Active',
          to: 'Paused',
          configurationError: expect.stringContaining('revoked'),
        }),
      ]);

      // Resume refuses while the source still refuses (400, nothing changed), then works once it is fixed.
      const refused = await call('PUT', `/${created.id}`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: { action: 'Resume' },
      });
      expect(refused.status).toBe(400);
      await cloud().connectorSources.injectFault(tenant.externalId, 'Slack', null);
      const resumed = await call<ConnectorBody>('PUT', `/${created.id}`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: { action: 'Resume' },
      });
      expect(resumed.body.data).toMatchObject({ status: 'Active', configurationError: null });
    } finally {
      app.clock.set(new Date(start));
    }
  });
});

describe('PUT /api/compliance/connectors/:id', () => {
  it('pauses and resumes (409 for a move to the same status), with the event each time', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    const put = (body: unknown) =>
      call<ConnectorBody>('PUT', `/${created.id}`, { key: org.keys.write, tenantId: tenant.id, body });
    const paused = await put({ action: 'Pause' });
    expect(paused.body.data).toMatchObject({ status: 'Paused', nextRunAt: null, configurationError: null });
    const again = await put({ action: 'Pause' });
    expect(again.status).toBe(409);
    expect(again.body.error?.details).toEqual({ from: 'Paused', to: 'Paused', allowed: ['Active'] });
    expect((await put({ action: 'Resume' })).body.data.status).toBe('Active');
    const { rows } = await app.pool.query(
      `select 1 from domain_events where kind = 'connector.status_changed' and payload->'details'->>'connectorId' = $1`,
      [created.id],
    );
    expect(rows).toHaveLength(2);
  });

  it('reconfigures after a test connection; a failing one is 400 with the reason and changes nothing', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await connector(tenant);
    const put = (body: unknown) =>
      call<ConnectorBody>('PUT', `/${created.id}`, { key: org.keys.write, tenantId: tenant.id, body });
    const refused = await put({
      name: 'Renamed',
      credentials: { workspaceUrl: 'https://acme.slack.com', apiToken: 'revoked-1' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.details.fields).toEqual([
      { field: 'credentials', problem: expect.stringContaining('401') },
    ]);
    const unchanged = await call<ConnectorBody[]>('GET', '', { key: org.keys.read, tenantId: tenant.id });
    expect(unchanged.body.data[0].name).toBe('Slack archive');
    const ann = await createUser(app, tenant, { userPrincipalName: `ann@${tenant.domain}` });
    const archive = await createUser(app, tenant, { userPrincipalName: `archive@${tenant.domain}` });
    const ok = await put({
      name: 'Renamed',
      scheduleHours: 12,
      userMapping: {
        strategy: 'Mapping table',
        mappings: [{ sourceIdentity: 'U123', userPrincipalName: ann.userPrincipalName.toUpperCase() }],
        unmatched: 'Import to fallback mailbox',
        fallbackMailbox: archive.userPrincipalName,
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      name: 'Renamed',
      scheduleHours: 12,
      userMapping: { strategy: 'Mapping table' },
    });
    expect((await put({ scheduleHours: 0 })).status).toBe(400);
  });

  it('sends imported items only to active users of the tenant (issue #32 item 5): 400 naming each field, nothing written', async () => {
    const tenant = await createTenant(app, org.scope);
    const gone = await createUser(app, tenant, { deletedAt: app.clock.now() });
    const mapping = {
      strategy: 'Mapping table',
      mappings: [
        { sourceIdentity: 'U1', userPrincipalName: 'exfil@attacker.example' },
        { sourceIdentity: 'U2', userPrincipalName: `nobody@${tenant.domain}` },
        { sourceIdentity: 'U3', userPrincipalName: gone.userPrincipalName },
      ],
      unmatched: 'Import to fallback mailbox',
      fallbackMailbox: 'loot@attacker.example',
    };
    const before = await connectorRows();
    const refused = await call('POST', '', {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...slack(), userMapping: mapping },
    });
    expect(refused.status).toBe(400);
    expect((refused.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toEqual([
      'userMapping.mappings.0.userPrincipalName',
      'userMapping.fallbackMailbox',
      'userMapping.mappings.1.userPrincipalName',
      'userMapping.mappings.2.userPrincipalName',
    ]);
    expect(await connectorRows()).toBe(before);
    const created = await connector(tenant);
    const put = await call<ConnectorBody>('PUT', `/${created.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { userMapping: mapping },
    });
    expect(put.status).toBe(400);
    const { rows } = await app.pool.query('select user_mapping from compliance_connectors where id = $1', [
      created.id,
    ]);
    expect(JSON.stringify(rows[0].user_mapping)).not.toContain('attacker');
  });

  it('works the same through GraphQL', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await app.graphql<{
      createComplianceConnector: { id: string; status: string; credentialFields: string[] };
    }>(
      org.keys.write,
      `mutation($t: UUID!, $input: CreateConnectorInput!) { createComplianceConnector(tenantId: $t, input: $input) {
        id status credentialFields } }`,
      { t: tenant.id, input: { ...slack(), category: 'COMMUNICATION' } },
    );
    seen.push(JSON.stringify(res.body));
    expect(res.body.data?.createComplianceConnector).toMatchObject({
      status: 'ACTIVE',
      credentialFields: ['workspaceUrl', 'apiToken'],
    });
    const id = res.body.data!.createComplianceConnector.id;
    const status = await app.graphql<{ complianceConnectorStatus: { health: string } }>(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { complianceConnectorStatus(tenantId: $t, id: $id) { health }
        complianceConnectorHistory(tenantId: $t, id: $id) { pageInfo { total } } }`,
      { t: tenant.id, id },
    );
    expect(status.body.data?.complianceConnectorStatus.health).toBe('HEALTHY');
    const foreign = await app.graphql(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { complianceConnector(tenantId: $t, id: $id) { id } }`,
      {
        t: (await createTenant(app, other.scope)).id,
        id,
      },
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

it('never shows the credentials: not in any response above, an event, a job payload or a run record', async () => {
  expect(seen.length).toBeGreaterThan(20);
  expect(seen.filter((body) => body.includes(SECRET))).toEqual([]);
  const { rows } = await app.pool.query<{ n: number }>(
    `select (select count(*) from domain_events where payload::text like $1)::int
          + (select count(*) from graphile_worker._private_jobs where payload::text like $1)::int
          + (select count(*) from compliance_connector_runs where errors::text like $1 or failure_reason like $1)::int as n`,
    [`%${SECRET}%`],
  );
  expect(rows[0].n).toBe(0);
});
