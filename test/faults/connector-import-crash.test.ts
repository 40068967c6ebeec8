/**
 * Fault suite (docs/reliability.md; issue #34 item 7): a compliance connector import caught mid-run. A row
 * lock the test holds on the connector stops the import right after its source call, as it records the result
 * with the connector's totals; the server's process group is then killed with kill -9. Another process takes
 * the run over: it is Succeeded once, and the connector's totals count its items once.
 */
import { createConnector } from '../compliance/compliance-kit.js';
import { createTenant } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { faultSuite, whileLocked } from './fault-kit.js';

const suite = faultSuite();

describe('[fault] kill -9 of a connector import mid-run', () => {
  it('the run is taken over and recorded once; the connector counts its items once', async () => {
    const { setup, org } = suite;
    const tenant = await createTenant(setup, org.scope);
    const connector = await createConnector(setup, org.keys.admin, tenant);
    setup.clock.advance(48 * 3_600_000);
    expect(await onServer(setup, 'scheduleImports')).toBe(1);
    const runs = async () =>
      (
        await setup.pool.query<{ id: string; status: string; items_imported: number }>(
          'select id, status, items_imported from compliance_connector_runs where connector_id = $1',
          [connector.id],
        )
      ).rows;
    const totals = async () =>
      (
        await setup.pool.query<{ items_imported: number }>(
          'select items_imported from compliance_connectors where id = $1',
          [connector.id],
        )
      ).rows[0].items_imported;

    await whileLocked(
      setup.databaseUrl,
      { sql: 'select 1 from compliance_connectors where id = $1 for update', params: [connector.id] },
      async (waitedOn) => {
        const server = await suite.startServer();
        // The import called its source and now waits to record the result with the connector's totals.
        await waitedOn('the import to wait for the connector row');
        await server.killGroup();
      },
    );
    expect((await runs()).map((run) => run.status)).toEqual(['Running']);
    expect(await totals()).toBe(0);
    // The killed server ran on the real clock, the next process runs on the tests' movable one: the run's
    // start is put on the latter so its duration stays a duration.
    await setup.pool.query('update compliance_connector_runs set started_at = $2 where connector_id = $1', [
      connector.id,
      setup.clock.now(),
    ]);

    await suite.startResumer();
    await eventually(async () => expect((await runs())[0].status).toBe('Succeeded'), {
      timeout: 60_000,
      maxInterval: 250, // a query a probe, for the seconds the resumer takes: backing off from 20 ms
      what: 'the taken-over import to finish',
    });
    const [run] = await runs();
    expect(run.items_imported).toBeGreaterThan(0);
    expect(await totals()).toBe(run.items_imported);
    expect(await runs()).toHaveLength(1);
  }, 180_000);
});
