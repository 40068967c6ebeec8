import { RECOUNT_FAILED_ITEMS } from '../../src/db/migrations/Migration20261230150000_connector_failed_items.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { multiplyRows } from '../helpers/list-plan.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  connectorApi,
  createConnector,
  runDueImports,
  slack,
  type ConnectorBody,
  type RunBody,
  type StatisticsBody,
  type StatusBody,
} from './compliance-kit.js';

/**
 * A run's errorCount counts the items that failed (not the source's messages), and every total built from it
 * agrees: the connector, the status report and the history's statistics (SPEC 4.2 "import history and
 * statistics"), which REST puts in meta beside the page.
 */

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite({ jobs: true })));
afterAll(() => app.stop());

const read = <T>(tenant: Tenant, path: string) =>
  connectorApi<T>(app, 'GET', path, { key: org.keys.read, tenantId: tenant.id });

/** Items a message such as "3 item(s) from source identities no mapping matched were skipped" states. */
const statedItems = (run: RunBody) =>
  run.errors.reduce((sum, message) => sum + Number(/^(\d+) item\(s\)/.exec(message)?.[1] ?? 0), 0);

/**
 * A connector whose first import skipped several items under one message. The simulated source skips a
 * deterministic number per connector and day (0 to 3), so a few connectors find one that skipped two or more.
 */
async function connectorWithSkippedItems(tenant: Tenant): Promise<{ id: string; run: RunBody }> {
  for (let attempt = 0; attempt < 15; attempt++) {
    const created = await createConnector(app, org.keys.write, tenant, slack({ name: `Slack ${attempt}` }));
    const [run] = await runDueImports(app, org.keys.read, tenant.id, created.id);
    if (run.errors.length === 1 && statedItems(run) >= 2) return { id: created.id, run };
  }
  throw new Error('no import skipped two or more items');
}

describe('errorCount counts the items that failed', () => {
  it('run, connector, status and history statistics all count the skipped items, not the messages', async () => {
    const tenant = await createTenant(app, org.scope);
    const { id, run } = await connectorWithSkippedItems(tenant);
    const skipped = statedItems(run);
    expect(run).toMatchObject({ status: 'Succeeded', errorCount: skipped });

    const list = await read<ConnectorBody[]>(tenant, '');
    expect(list.body.data.find((c) => c.id === id)).toMatchObject({ errorCount: skipped });
    const status = await read<StatusBody>(tenant, `/${id}/status`);
    expect(status.body.data).toMatchObject({ errorCount: skipped, runs: 1, failedRuns: 0 });
    const history = await read<RunBody[]>(tenant, `/${id}/history`);
    expect(history.body.meta).toMatchObject({ statistics: { errorCount: skipped } });
  });

  it('the migration recounts runs stored with the message count, and moves the connector total alike', async () => {
    const tenant = await createTenant(app, org.scope);
    const { id, run } = await connectorWithSkippedItems(tenant);
    // As the old import wrote them: one per message, on the run and on the connector.
    await app.pool.query(`update compliance_connector_runs set error_count = 1 where connector_id = $1`, [
      id,
    ]);
    await app.pool.query(`update compliance_connectors set error_count = 1 where id = $1`, [id]);
    await app.pool.query(RECOUNT_FAILED_ITEMS);
    const { rows } = await app.pool.query<{ run: number; connector: number }>(
      `select r.error_count as run, c.error_count as connector
         from compliance_connector_runs r join compliance_connectors c on c.id = r.connector_id
        where c.id = $1`,
      [id],
    );
    expect(rows).toEqual([{ run: statedItems(run), connector: statedItems(run) }]);
    await app.pool.query(RECOUNT_FAILED_ITEMS); // again: nothing moves
    const again = await app.pool.query<{ n: number }>(
      'select error_count as n from compliance_connectors where id = $1',
      [id],
    );
    expect(again.rows[0].n).toBe(statedItems(run));
  });
});

describe('GET /api/compliance/connectors/:id/history: import history and statistics', () => {
  it('REST: data is the page of runs, meta has page, limit, total and the statistics the status report has', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    await runDueImports(app, org.keys.read, tenant.id, created.id);
    const history = await read<RunBody[]>(tenant, `/${created.id}/history?limit=1&page=2`);
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([]); // past the end: the statistics still cover every run
    const status = (await read<StatusBody>(tenant, `/${created.id}/status`)).body.data;
    const statistics: StatisticsBody = {
      runs: 1,
      failedRuns: 0,
      itemsImported: status.itemsImported,
      errorCount: status.errorCount,
      lastImportAt: status.lastImportAt,
      lastRunStatus: 'Succeeded',
      lastRunFinishedAt: status.lastRunFinishedAt,
    };
    expect(status).toMatchObject(statistics);
    expect(statistics.itemsImported).toBeGreaterThan(0);
    expect(history.body.meta).toEqual({ page: 2, limit: 1, total: 1, statistics });
  });

  it('GraphQL: the page has a statistics field', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    await runDueImports(app, org.keys.read, tenant.id, created.id);
    const res = await app.graphql<{
      complianceConnectorHistory: { items: Array<{ id: string }>; statistics: Record<string, unknown> };
    }>(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { complianceConnectorHistory(tenantId: $t, id: $id) {
        items { id } statistics { runs failedRuns itemsImported errorCount lastRunStatus } } }`,
      { t: tenant.id, id: created.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.complianceConnectorHistory).toMatchObject({
      items: [{ id: expect.any(String) }],
      statistics: { runs: 1, failedRuns: 0, lastRunStatus: 'SUCCEEDED' },
    });
  });

  it('costs the same SQL statements at limit=2 and limit=20', async () => {
    const tenant = await createTenant(app, org.scope);
    const created = await createConnector(app, org.keys.write, tenant);
    await runDueImports(app, org.keys.read, tenant.id, created.id);
    const { rows } = await app.pool.query<{ id: string }>(
      'select id from compliance_connector_runs where connector_id = $1',
      [created.id],
    );
    await multiplyRows(app, 'compliance_connector_runs', rows[0].id, 30);
    const page = async (limit: number) =>
      expect((await read<RunBody[]>(tenant, `/${created.id}/history?limit=${limit}`)).body.data).toHaveLength(
        limit,
      );
    await page(2);
    const small = await app.sql.during(() => page(2));
    const large = await app.sql.during(() => page(20));
    expect(large).toBe(small);
  });
});
