/**
 * Fault suite (docs/reliability.md; issue #34 item 3): SIGTERM while a long user import runs. The import
 * honours the job's stop signal between two rows, so the server exits 0 well within SHUTDOWN_TIMEOUT_MS with
 * every stop step done (the old import ignored it: the stop waited the whole budget, exited 1 naming "the
 * database is unreachable" and skipped the steps after it, the embedded PostgreSQL's stop among them). The
 * interrupted run is not counted as died, and the next run finishes the import without creating anyone twice.
 */
import { createTenant } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { faultSuite, submitUserImport, userImportRow } from './fault-kit.js';

const ROWS = 200;
const SHUTDOWN_TIMEOUT_MS = 8_000;
const suite = faultSuite();

describe('[fault] SIGTERM during a user import', () => {
  it('stops between two rows, exits 0 within the bound, and the import resumes without duplicates', async () => {
    const { setup, org } = suite;
    const tenant = await createTenant(setup, org.scope, { domain: 'sigterm-import.example' });
    const importId = await submitUserImport(setup, org, tenant, ROWS);
    const importRow = () => userImportRow(setup, importId);

    const server = await suite.startServer({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    await eventually(async () => expect((await importRow()).processed_rows).toBeGreaterThan(10), {
      timeout: 60_000,
      what: 'the import to be under way',
    });
    const signalledAt = Date.now();
    process.kill(server.pid, 'SIGTERM');
    const code = await server.exited();
    const stopMs = Date.now() - signalledAt;

    expect(code).toBe(0);
    expect(server.output).not.toMatch(/did not finish within/);
    expect(stopMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    const stopped = await importRow();
    expect(stopped.status).toBe('Running');
    expect(stopped.processed_rows).toBeLessThan(ROWS); // stopped mid-way, not run to the end
    expect(stopped.run_attempts).toBe(0); // a stop is not a death

    await onServer(setup, 'runUserImport', org.scope, importId);
    expect(await importRow()).toMatchObject({
      status: 'Completed',
      processed_rows: ROWS,
      created_rows: ROWS,
    });
    const { rows } = await setup.pool.query<{ n: string }>(
      `select count(*) as n from users where tenant_id = $1 and deleted_at is null`,
      [tenant.id],
    );
    expect(Number(rows[0].n)).toBe(ROWS);
  }, 180_000);
});
