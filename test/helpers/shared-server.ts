/**
 * The jest worker's shared server: one TestApp (with its job runner) per jest worker process, started on first
 * use and serving every test file of that worker that asks for it (`sharedSuite`, test/helpers/shared-suite.ts).
 *
 * It runs outside the test files' vm contexts, from the compiled code in dist/ (loaded by test/environment.mjs),
 * so a file that uses it does not evaluate the app's ~1,400 modules, build the schema, open an ORM or start a
 * job runner of its own: those were most of a file's fixed cost. Jest runs one file at a time in a worker, so
 * the server serves one file at a time; each file works in organizations of its own (the product's isolation),
 * and `beginFile` gives it the rest of a fresh server's state: the clock at its start, the SQL counter empty.
 *
 * The fixtures are made here too, with the server's ORM: the test file's own copies of the entity classes (its
 * own module registry) are not the ones this ORM knows, so the file calls these through `SharedApp`.
 */
import type { MovableClock } from '../../src/core/clock.js';
import { RATE_LIMIT_TABLE } from '../../src/http/rate-limit.js';
import type { AppDeps } from '../../src/core/service-context.js';
import { createApiKey, createOrganization, createOrganizationWithKeys } from '../factories/organizations.js';
import { createLicenseUser, createSku } from '../factories/licenses.js';
import { createTenant, grantConsent } from '../factories/tenants.js';
import { cloudUserOf, createGroup, createUser, giveLicense } from '../factories/users.js';
import type pg from 'pg';
import type { SqlCounter } from './sql-counter.js';
import { TEST_CLOCK_START, TestApp } from './test-app.js';

const FACTORIES = {
  createOrganization,
  createApiKey,
  createOrganizationWithKeys,
  createTenant,
  grantConsent,
  createUser,
  cloudUserOf,
  createGroup,
  giveLicense,
  createSku,
  createLicenseUser,
};

type Factories = typeof FACTORIES;
/** A factory with the shared server's app already given. */
type Bound<F> = F extends (app: TestApp, ...rest: infer A) => infer R ? (...rest: A) => R : never;
export type SharedFactories = { [K in keyof Factories]: Bound<Factories[K]> };

/** What a test file gets of the shared server. */
export interface SharedServerHandle {
  baseUrl: string;
  databaseUrl: string;
  clock: MovableClock;
  /** The server's pool (the database owner's role, as TestApp's). */
  pool: pg.Pool;
  sql: SqlCounter;
  deps: AppDeps;
  factories: SharedFactories;
}

export interface SharedServer {
  /** The handle for the file starting now, with a fresh server's clock, SQL counter and per-address windows. */
  beginFile(): Promise<SharedServerHandle>;
  stop(): Promise<void>;
}

export async function startSharedServer(): Promise<SharedServer> {
  const app = await TestApp.start({ jobs: true });
  const factories = Object.fromEntries(
    Object.entries(FACTORIES).map(([name, factory]) => [
      name,
      (...rest: unknown[]) => (factory as (app: TestApp, ...rest: unknown[]) => unknown)(app, ...rest),
    ]),
  ) as SharedFactories;
  const handle: SharedServerHandle = {
    baseUrl: app.baseUrl,
    databaseUrl: app.databaseUrl,
    clock: app.clock,
    pool: app.pool,
    sql: app.sql,
    deps: app.deps,
    factories,
  };
  return {
    async beginFile() {
      app.clock.set(new Date(TEST_CLOCK_START));
      app.sql.reset();
      // Requests without valid credentials count per client address, and every file calls from 127.0.0.1:
      // each file starts with the empty windows a server of its own had (organizations' are its own anyway).
      await app.pool.query(`delete from ${RATE_LIMIT_TABLE} where key like 'ip:%'`);
      return handle;
    },
    stop: () => app.stop(),
  };
}
