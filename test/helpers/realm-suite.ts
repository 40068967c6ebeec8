/**
 * A server of the file's own, built in the jest worker's realm (test/helpers/realm-server.ts): `startSuite`'s and
 * `TestApp.start`'s options and shape, without evaluating the app's modules or building the schema in the file.
 *
 *   beforeAll(async () => ({ app, org, other } = await realmSuite({ other: true, maxJsonBodyBytes: 2048 })));
 *   afterAll(() => app.stop());
 *
 * For files that need configuration, a database or a world of their own (docs/development.md, "How tests get a
 * server"); files that need none take the shared server (shared-suite.ts). Like the shared server, the app's
 * objects live in the worker's realm: fixtures come from test/factories/shared.ts and in-process steps go
 * through `onServer` (the app has no `orm` here). Only types are imported from the app.
 */
import type { RealmServerHandle } from './realm-server.js';
import { SharedApp, type SharedSuite } from './shared-suite.js';
import type { SuiteOptions, TenantFields } from './suite.js';
import type { TestAppOptions } from './test-app.js';

declare global {
  /** Set by test/environment.mjs: a server of the file's own in the worker's realm. */
  var __mspRealmServer: ((options: TestAppOptions) => Promise<RealmServerHandle>) | undefined;
}

/** The file's own server in the worker's realm: SharedApp's helpers, and a life of its own. */
export class RealmApp extends SharedApp {
  constructor(private readonly handle: RealmServerHandle) {
    super(handle);
  }

  /** Starts or stops the server's job runner (TestApp's `runJobs`). */
  runJobs(on: boolean): Promise<void> {
    return this.handle.runJobs(on);
  }

  /** Connections the HTTP server holds open right now. */
  connections(): Promise<number> {
    return this.handle.connections();
  }

  /** Connections the HTTP server has accepted since it started, closed ones included. */
  acceptedConnections(): Promise<number> {
    return this.handle.acceptedConnections();
  }

  /** Stops the server (the environment does at the file's end if the file did not). */
  override stop(): Promise<void> {
    return this.handle.stop();
  }
}

/** `TestApp.start(options)`, built in the worker's realm. */
export async function realmApp(options: TestAppOptions = {}): Promise<RealmApp> {
  const start = globalThis.__mspRealmServer;
  if (!start) throw new Error('No realm server: run the tests with test/environment.mjs (jest.config.ts)');
  return new RealmApp(await start(options));
}

export type RealmSuite<
  Other extends boolean = false,
  WithTenant extends boolean | TenantFields = false,
> = Omit<SharedSuite<Other, WithTenant>, 'app'> & { app: RealmApp };

/** `startSuite(options)` on a server built in the worker's realm. */
export async function realmSuite<
  Other extends boolean = false,
  WithTenant extends boolean | TenantFields = false,
>(options: SuiteOptions<Other, WithTenant> = {}): Promise<RealmSuite<Other, WithTenant>> {
  const { organization, other: withOther, tenant: withTenant, ...appOptions } = options;
  const app = await realmApp(appOptions);
  try {
    const { createOrganizationWithKeys, createTenant } = app.serverSide;
    const [org, other] = await Promise.all([
      createOrganizationWithKeys(organization),
      withOther ? createOrganizationWithKeys() : undefined,
    ]);
    const tenant = withTenant
      ? await createTenant(org.scope, withTenant === true ? {} : withTenant)
      : undefined;
    return { app, org, other, tenant } as unknown as RealmSuite<Other, WithTenant>;
  } catch (error) {
    await app.stop();
    throw error;
  }
}
