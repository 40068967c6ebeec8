import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
import { TestApp, type TestAppOptions } from '../helpers/test-app.js';

/**
 * The live environment on the Graph fake: a server whose Microsoft 365 settings point at the HTTPS fake, an
 * organization whose live environment is connected to the fake's partner app, and helpers to onboard and
 * sync a customer with the live Admin key. The tests assert the exact Graph requests (`graphCalls`).
 */
export interface LiveWorld {
  scenario: GraphScenario;
  app: TestApp;
  org: OrganizationWithKeys;
  /** The live Admin key of `org` (connected to the fake). */
  key: string;
}

export async function startLiveWorld(
  options: Pick<TestAppOptions, 'jobs' | 'databaseUrl' | 'cloudCallBudget' | 'deviceActions'> = {},
): Promise<LiveWorld> {
  const scenario = await startGraphScenario();
  const app = await TestApp.start({ microsoft365: scenario.settings, ...options });
  const org = await createOrganizationWithKeys(app);
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

export async function stopLiveWorld(world: LiveWorld | undefined): Promise<void> {
  await world?.app.stop();
  await world?.scenario.fake.stop();
}

const ONBOARD = `mutation Onboard($externalId: String!) {
  onboardTenant(input: { externalId: $externalId }) { id name domain status }
}`;

export type OnboardResult = Awaited<ReturnType<typeof onboardLive>>;

/** GraphQL onboardTenant with the live key. */
export function onboardLive(world: LiveWorld, externalId: string) {
  return world.app.graphql<{ onboardTenant: { id: string; name: string; domain: string; status: string } }>(
    world.key,
    ONBOARD,
    { externalId },
  );
}

/** Onboards the consented customer and syncs it (the sync must complete). */
export async function onboardAndSyncLive(world: LiveWorld): Promise<{ tenantId: string; sync: SyncBody }> {
  const onboarded = await onboardLive(world, world.scenario.consented.id);
  expect(onboarded.body.errors).toBeUndefined();
  const tenantId = onboarded.body.data!.onboardTenant.id;
  const sync = await syncAndWait(world.app, world.org, tenantId, 30_000, world.key);
  expect(sync).toMatchObject({ status: 'Completed', error: null });
  return { tenantId, sync };
}

/** The Graph requests since the last clear, without the host: `GET /v1.0/organization?$select=…`. */
export function graphCalls(world: LiveWorld): string[] {
  return world.scenario.fake.graphCalls();
}

export type { Envelope };
