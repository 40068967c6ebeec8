import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createOrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import {
  cliEnvFor,
  seedGraphScenario,
  startGraphScenario,
  type GraphScenario,
} from '../helpers/graph-fake.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, RealmApp } from '../helpers/realm-suite.js';
import type { SharedLiveServer } from '../helpers/shared-live-server.js';
import { SharedApp, type TestServer } from '../helpers/shared-suite.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
import type { TestApp, TestAppOptions } from '../helpers/test-app.js';

declare global {
  /** Set by test/environment.mjs: the worker's shared live server, started on the first call. */
  var __mspSharedLiveServer: (() => Promise<SharedLiveServer>) | undefined;
}

/**
 * The live environment on the Graph fake: a server whose Microsoft 365 settings point at the HTTPS fake, an
 * organization whose live environment is connected to the fake's partner app, and helpers to onboard and
 * sync a customer with the live Admin key. The tests assert the exact Graph requests (`graphCalls`).
 *
 * `sharedLiveWorld()` is that world on the jest worker's shared live server (test/helpers/shared-live-server.ts:
 * its app and its fake, reset for the file); `realmLiveWorld()` a server of the file's own in the worker's realm
 * (realm-suite.ts: configured, e.g. call budgets, without evaluating the app's modules in the file) and a fake of
 * the file's own; `startLiveWorld()` a TestApp in the file, for files that use the app's modules in the file.
 */
export interface LiveWorld<App extends TestServer = TestApp> {
  scenario: GraphScenario;
  app: App;
  org: OrganizationWithKeys;
  /** The live Admin key of `org` (connected to the fake). */
  key: string;
}

/** Connects the organization's live environment to the scenario's partner app (and forgets the calls it made). */
async function connectLive<App extends TestServer>(
  scenario: GraphScenario,
  app: App,
  org: OrganizationWithKeys,
): Promise<LiveWorld<App>> {
  const saved = await app.request('PUT', '/api/settings/cloud-connection', {
    key: org.liveAdminKey,
    body: {
      provider: 'microsoft365',
      partnerTenantId: scenario.partner.id,
      clientId: scenario.app.clientId,
      clientSecret: scenario.secret,
    },
  });
  expect(saved.status).toBe(200);
  scenario.fake.clearRequests();
  return { scenario, app, org, key: org.liveAdminKey };
}

export async function startLiveWorld(
  options: Pick<TestAppOptions, 'jobs' | 'databaseUrl' | 'cloudCallBudget' | 'deviceActions'> = {},
): Promise<LiveWorld> {
  const { TestApp } = await import('../helpers/test-app.js');
  const scenario = await startGraphScenario();
  const app = await TestApp.start({ microsoft365: scenario.settings, ...options });
  return connectLive(scenario, app, await createOrganizationWithKeys(app));
}

/**
 * A live world on a server of the file's own in the worker's realm (realm-suite.ts), configured with `options`,
 * and a fake of the file's own: for files that configure the server (call budgets) but need none of its modules
 * in the file (in-process steps through `onServer`). `microsoft365` overrides some of the fake's settings (a
 * longer Graph deadline...).
 */
export async function realmLiveWorld(
  options: Pick<
    TestAppOptions,
    'jobs' | 'databaseUrl' | 'cloudCallBudget' | 'deviceActions' | 'jobStaleAfterMs' | 'microsoft365'
  > = {},
): Promise<LiveWorld<RealmApp>> {
  const scenario = await startGraphScenario();
  const app = await realmApp({ ...options, microsoft365: { ...scenario.settings, ...options.microsoft365 } });
  return connectLive(scenario, app, await createOrganizationWithKeys(app));
}

/**
 * The live world on the worker's shared live server: its app (jobs run while this file does when `jobs`), its
 * fake reset for this file and seeded with this file's partner, app and customers, and an organization of the
 * file's own. Device actions are polled every 0.5 s (LIVE_DEVICE_ACTION_POLL_MS).
 */
export async function sharedLiveWorld(options: { jobs?: boolean } = {}): Promise<LiveWorld<SharedApp>> {
  const { app, scenario } = await sharedLiveScenario(options);
  return connectLive(scenario, app, await createOrganizationWithKeys(app));
}

/**
 * The worker's shared live server for this file (its jobs run while this file does when `jobs`) and its fake,
 * reset for this file and seeded with this file's partner, app and customers; no organization yet
 * (`sharedLiveWorld` adds one). The CLI files use it as it is: the CLI runs in the server's process (onServer
 * `runCli`) on a database of the file's own.
 */
export async function sharedLiveScenario(
  options: { jobs?: boolean } = {},
): Promise<{ app: SharedApp; scenario: GraphScenario }> {
  const start = globalThis.__mspSharedLiveServer;
  if (!start)
    throw new Error('No shared live server: run the tests with test/environment.mjs (jest.config.ts)');
  const handle = await (await start()).beginFile({ jobs: options.jobs ?? false });
  return { app: new SharedApp(handle), scenario: seedGraphScenario(handle.fake) };
}

/**
 * The CLI files' world: the shared live scenario, a database of the file's own holding the demo organization (a
 * clone of the run's seeded demo: the CLI's seed on a fresh database is test/cli/'s to check), and
 * `cli(...args)` running the CLI in the shared live server's process on it with the fake's environment
 * (test/cli/ runs each command family as a real process).
 */
export async function sharedLiveCli() {
  const { app, scenario } = await sharedLiveScenario();
  const databaseUrl = await onServer(app, 'createDemoDatabase');
  const cli = (...args: string[]) => onServer(app, 'runCli', databaseUrl, cliEnvFor(scenario), args);
  return { scenario, databaseUrl, cli };
}

/** Stops the file's own server and fake; a shared live world's are the worker's (nothing to stop). */
export async function stopLiveWorld(world: LiveWorld<TestServer> | undefined): Promise<void> {
  if (!world || (world.app instanceof SharedApp && !(world.app instanceof RealmApp))) return;
  await world.app.stop();
  await world.scenario.fake.stop();
}

const ONBOARD = `mutation Onboard($externalId: String!) {
  onboardTenant(input: { externalId: $externalId }) { id name domain status }
}`;

export type OnboardResult = Awaited<ReturnType<typeof onboardLive>>;

/** GraphQL onboardTenant with the live key. */
export function onboardLive(world: LiveWorld<TestServer>, externalId: string) {
  return world.app.graphql<{ onboardTenant: { id: string; name: string; domain: string; status: string } }>(
    world.key,
    ONBOARD,
    { externalId },
  );
}

/** Onboards the consented customer and syncs it (the sync must complete). */
export async function onboardAndSyncLive(
  world: LiveWorld<TestServer>,
): Promise<{ tenantId: string; sync: SyncBody }> {
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  const tenantId = onboarded.body.data!.onboardTenant.id;
  const sync = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
  expect(sync).toMatchObject({ status: 'Completed', error: null });
  return { tenantId, sync };
}

/** The Graph requests since the last clear, without the host: `GET /v1.0/organization?$select=…`. */
export function graphCalls(world: LiveWorld<TestServer>): string[] {
  return world.scenario.fake.graphCalls();
}

export type { Envelope };
