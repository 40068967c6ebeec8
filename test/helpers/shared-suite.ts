/**
 * Suites on the jest worker's shared server (test/helpers/shared-server.ts): the same shape as `startSuite`
 * (test/helpers/suite.ts), without a server of the file's own.
 *
 *   beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
 *   afterAll(() => app.stop());
 *
 * Use it when the file needs no server configuration of its own (TestAppOptions) and no database of its own:
 * everything the file makes is in its own organizations, and whatever it counts or reads in SQL is scoped to
 * them (other files' rows are in the same database). Fixtures come from test/factories/shared.ts. Files that
 * start servers with options, stop or break them, or need an empty database keep `startSuite`/`TestApp.start`.
 *
 * Only types are imported from the app and its factories, so the file does not evaluate the app's modules.
 */
import type { MovableClock } from '../../src/core/clock.js';
import type { AppDeps } from '../../src/core/service-context.js';
import type { WebhookSettings } from '../../src/webhooks/webhook.settings.js';
import type pg from 'pg';
import { ApiClient } from './api-client.js';
import type { BoundServerSide } from './server-side.js';
import type { SharedServer, SharedServerHandle } from './shared-server.js';
import type { SqlCounter } from './sql-counter.js';
import type { TestApp } from './test-app.js';
import type { Suite, SuiteOptions, TenantFields } from './suite.js';

declare global {
  /** Set by test/environment.mjs: the worker's shared server, started on the first call. */
  var __mspSharedServer: (() => Promise<SharedServer>) | undefined;
}

/** The shared server as a test file sees it: TestApp's request helpers, clock, pool, SQL counter and cloud. */
export class SharedApp extends ApiClient {
  readonly databaseUrl: string;
  readonly clock: MovableClock;
  readonly pool: pg.Pool;
  readonly sql: SqlCounter;
  readonly deps: AppDeps;
  /** server-side.ts's operations, run by the server (through on-server.ts). */
  readonly serverSide: BoundServerSide;

  constructor(handle: SharedServerHandle) {
    super(handle.baseUrl, handle.checkAnswer);
    this.databaseUrl = handle.databaseUrl;
    this.clock = handle.clock;
    this.pool = handle.pool;
    this.sql = handle.sql;
    this.deps = handle.deps;
    this.serverSide = handle.serverSide;
  }

  /** The server is the worker's and serves the next file: nothing to stop (kept so suites read as before). */
  async stop(): Promise<void> {}
}

/** The jest worker's shared server, ready for this file (as a fresh server: SharedServer.beginFile). */
export async function sharedApp(
  options: { jobs?: boolean; webhooks?: Partial<WebhookSettings> } = {},
): Promise<SharedApp> {
  const start = globalThis.__mspSharedServer;
  if (!start) throw new Error('No shared server: run the tests with test/environment.mjs (jest.config.ts)');
  return new SharedApp(
    await (await start()).beginFile({ jobs: options.jobs ?? false, webhooks: options.webhooks }),
  );
}

export type SharedSuiteOptions<Other extends boolean, WithTenant extends boolean | TenantFields> = Pick<
  SuiteOptions<Other, WithTenant>,
  'organization' | 'other' | 'tenant'
> & {
  /** Run background jobs (TestAppOptions' `jobs`): the shared server's runner runs while this file does. */
  jobs?: boolean;
  /** Webhook settings (TestAppOptions' `webhooks`), the shared server's while this file runs. */
  webhooks?: Partial<WebhookSettings>;
};

export type SharedSuite<
  Other extends boolean = false,
  WithTenant extends boolean | TenantFields = false,
> = Omit<Suite<Other, WithTenant>, 'app'> & { app: SharedApp };

/** `startSuite`'s fixtures (an organization with keys, and when asked another and a tenant) on the shared server. */
export async function sharedSuite<
  Other extends boolean = false,
  WithTenant extends boolean | TenantFields = false,
>(options: SharedSuiteOptions<Other, WithTenant> = {}): Promise<SharedSuite<Other, WithTenant>> {
  const app = await sharedApp({ jobs: options.jobs, webhooks: options.webhooks });
  const { createOrganizationWithKeys, createTenant } = app.serverSide;
  const [org, other] = await Promise.all([
    createOrganizationWithKeys(options.organization),
    options.other ? createOrganizationWithKeys() : undefined,
  ]);
  const tenant = options.tenant
    ? await createTenant(org.scope, options.tenant === true ? {} : options.tenant)
    : undefined;
  return { app, org, other, tenant } as unknown as SharedSuite<Other, WithTenant>;
}

/** Either kind of server: what kits and helpers used by files of both kinds take. */
export type TestServer = TestApp | SharedApp;
