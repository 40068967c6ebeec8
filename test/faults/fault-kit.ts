import pg from 'pg';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import type { TestServer } from '../helpers/shared-suite.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { FaultServer, health } from './fault-server.js';

// The server process and its health probe live apart (fault-server.ts), so a file that needs only them does not
// load this kit's realm-suite.ts.
export { FaultServer, health };

/**
 * The set-up of a fault test that kills a real server mid-job and lets another process take over: a database of
 * its own with an organization (`setup`, the fixtures' and checks' server, running no jobs until it resumes),
 * the server as a child process with its worker on, and the resumer that takes over dead workers' jobs.
 * Registers its own beforeAll/afterAll, which reap whatever is still running:
 *
 *   const suite = faultSuite();
 *   ... server = await suite.startServer(); ... await server.killGroup(); await suite.startResumer();
 */
export interface FaultSuite {
  /**
   * The server on the suite's database, built in the worker's realm (realm-suite.ts: the file evaluates none of
   * the app's modules), running no jobs until `startResumer`: fixtures and checks, through `onServer`.
   */
  readonly setup: RealmApp;
  readonly org: OrganizationWithKeys;
  /** The real server on the suite's database with its worker on (`RUN_WORKER=true`), plus `env`. */
  startServer(env?: Record<string, string>): Promise<FaultServer>;
  /**
   * Starts `setup`'s job runner, which takes dead workers' jobs over (released after 1 s): a process other than
   * the killed server's, on the same database. It was one more app on that database, with a second ORM, pool and
   * listener, for a runner the fixtures' server can run as well.
   */
  startResumer(): Promise<RealmApp>;
}

export function faultSuite(): FaultSuite {
  let setup: RealmApp | undefined;
  let org: OrganizationWithKeys | undefined;
  const servers: FaultServer[] = [];
  beforeAll(async () => {
    setup = await realmApp({ databaseUrl: await createTestDatabase(), jobStaleAfterMs: 1_000 });
    org = await createOrganizationWithKeys(setup);
  });
  afterAll(async () => {
    for (const server of servers) server.reap();
    await setup?.stop();
  });
  const started = (): RealmApp => {
    if (!setup) throw new Error('faultSuite(): used before its beforeAll ran');
    return setup;
  };
  return {
    get setup() {
      return started();
    },
    get org() {
      started();
      return org!;
    },
    async startServer(env = {}) {
      const server = await FaultServer.start({
        DATABASE_URL: started().databaseUrl,
        RUN_WORKER: 'true',
        ...env,
      });
      servers.push(server);
      return server;
    },
    async startResumer() {
      await started().runJobs(true);
      return started();
    },
  };
}

/** A user import of `rows` new users of `tenant` (CSV through REST), queued: its id. */
export async function submitUserImport(
  app: TestServer,
  org: OrganizationWithKeys,
  tenant: Tenant,
  rows: number,
): Promise<string> {
  const csv = `UserPrincipalName,FirstName,LastName\n${Array.from(
    { length: rows },
    (_, i) => `user${i}@${tenant.domain},User,${i}`,
  ).join('\n')}\n`;
  const submitted = await app.request<Envelope<{ operation: { id: string } }>>(
    'POST',
    '/api/user-management-identity/users/bulk',
    { key: org.keys.write, rawBody: csv, headers: { 'content-type': 'text/csv', 'X-Tenant-Id': tenant.id } },
  );
  expect(submitted.status).toBe(202);
  return submitted.body.data.operation.id;
}

export { userImportRow, type UserImportRow } from '../helpers/user-import-row.js';

/**
 * Holds a lock in a transaction of its own connection while `act` runs, then rolls it back, whatever
 * happened. `act` gets `waitedOn(what)`: resolves once another session of this database waits for a lock
 * (`relation`: for a table lock only), which is how a test stops a job at an exact point before killing it.
 */
export async function whileLocked(
  databaseUrl: string,
  lock: { sql: string; params?: unknown[]; relation?: boolean },
  act: (waitedOn: (what: string, timeoutMs?: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const waitedOn = (what: string, timeoutMs = 60_000) =>
    eventually(
      async () => {
        const { rows } = await client.query(
          `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
              and wait_event_type = 'Lock' ${lock.relation ? "and wait_event = 'relation'" : ''}`,
        );
        expect(rows).toHaveLength(1);
      },
      // The job stays at the lock however late this sees it: backing off from 20 ms to 250 ms costs no precision,
      // and spares a pg_stat_activity query every 20 ms for the seconds a server process takes to get there.
      { timeout: timeoutMs, maxInterval: 250, what },
    );
  try {
    await client.query('begin');
    await client.query(lock.sql, lock.params);
    await act(waitedOn);
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end();
  }
}
