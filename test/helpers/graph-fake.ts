import { randomUUID } from 'node:crypto';
import { CloudError } from '../../src/cloud/cloud-error.js';
import { MICROSOFT365_APPLICATION_PERMISSIONS } from '../../src/cloud/microsoft365/graph-capabilities.js';
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { GraphFake, fakeMicrosoft365Settings, trustFakeAuthority } from '../graph-fake/graph-fake.js';
import { fakeUser, type FakeApp, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { onServer } from './on-server.js';
import type { TestServer } from './shared-suite.js';
import { TEST_SECRETS_KEY } from './test-secrets.js';

/** The partner's world on the fake: its tenant and app, and customers in each consent state. */
export interface GraphScenario {
  fake: GraphFake;
  app: FakeApp;
  secret: string;
  partner: FakeTenant;
  /** Consented to the app with every permission the product asks for. */
  consented: FakeTenant;
  /** Knows the app, but no administrator consented (AADSTS65001). */
  consentMissing: FakeTenant;
  /** Never heard of the app (AADSTS700016). */
  unknownApp: FakeTenant;
  /** For AppDeps.microsoft365 / TestApp: the fake's URLs, short retry waits and deadlines. */
  settings: Partial<Microsoft365Settings>;
}

export const FULL_ROLES = [...MICROSOFT365_APPLICATION_PERMISSIONS];

/** Starts the HTTPS Graph fake with a partner, its app and three customers (stop it with `fake.stop()`). */
export async function startGraphScenario(): Promise<GraphScenario> {
  trustFakeAuthority();
  return seedGraphScenario(await GraphFake.start());
}

/**
 * Puts the scenario's partner, app and customers into a running fake's directory (the jest worker's shared
 * live fake, test/helpers/shared-live-server.ts, after its reset for the file).
 */
export function seedGraphScenario(fake: GraphFake): GraphScenario {
  const state = fake.state;
  const app = state.addApp();
  const partner = state.addTenant({
    displayName: 'Contoso MSP',
    domains: ['contosomsp.com', 'contosomsp.onmicrosoft.com'],
  });
  partner.consents.set(app.clientId, { roles: FULL_ROLES });
  const consented = state.addTenant({
    displayName: 'Fabrikam',
    domains: ['fabrikam.com', 'fabrikam.onmicrosoft.com'],
  });
  consented.consents.set(app.clientId, { roles: FULL_ROLES });
  for (const name of ['Adele Vance', 'Alex Wilber', 'Diego Siciliani', 'Grady Archie', 'Lee Gu'])
    state.putUser(consented, fakeUser(consented, name));
  consented.skus = [
    {
      id: `${consented.id}_c7df2760-2c81-4ef7-b578-5b5392b571df`,
      skuId: 'c7df2760-2c81-4ef7-b578-5b5392b571df',
      skuPartNumber: 'ENTERPRISEPREMIUM',
      capabilityStatus: 'Enabled',
      appliesTo: 'User',
      consumedUnits: 3,
      prepaidUnits: { enabled: 10, suspended: 0, warning: 0, lockedOut: 0 },
      servicePlans: [],
    },
  ];
  const consentMissing = state.addTenant({ displayName: 'Northwind Traders' });
  consentMissing.consents.set(app.clientId, 'consent-missing');
  const unknownApp = state.addTenant({ displayName: 'Tailspin Toys' });
  partner.customers = [consented, consentMissing, unknownApp].map((tenant) => ({
    id: tenant.id,
    tenantId: tenant.id,
    displayName: tenant.displayName,
  }));
  return {
    fake,
    app,
    secret: app.secrets[0],
    partner,
    consented,
    consentMissing,
    unknownApp,
    settings: fakeMicrosoft365Settings(fake),
  };
}

/** A tenant id nobody has. */
export const unknownTenantId = (): string => randomUUID();

/** The CloudError a provider call rejected with (the test fails when it resolved, or threw something else). */
export async function cloudFailure(promise: Promise<unknown>): Promise<CloudError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CloudError);
  return error as CloudError;
}

/** The environment a CLI process (or an in-process CLI run) needs to reach the scenario's fake Microsoft 365. */
export function cliEnvFor(scenario: GraphScenario): Record<string, string> {
  return {
    MICROSOFT_LOGIN_URL: scenario.fake.loginUrl,
    MICROSOFT_GRAPH_URL: scenario.fake.graphUrl,
    MICROSOFT_DEFENDER_URL: scenario.fake.defenderUrl,
    SECRETS_KEY: TEST_SECRETS_KEY,
  };
}

/** The CLI arguments that connect an organization (demo by default) to the scenario's partner tenant and app. */
export function cloudConnectArgs(scenario: GraphScenario, secret = scenario.secret, org = 'demo'): string[] {
  return [
    'cloud',
    'connect',
    '--org',
    org,
    '--tenant-id',
    scenario.partner.id,
    '--client-id',
    scenario.app.clientId,
    '--client-secret',
    secret,
  ];
}

/**
 * One sandbox tenant of the file's server takes its areas besides the directory from Graph on the scenario's
 * fake, in the fake tenant `upstream` (graph-areas.ts's `useGraphAreas`, run by the server: on a server of the
 * file's own, realm-suite.ts, whose clouds nothing after the file uses).
 */
export function useGraphAreasOf(
  app: TestServer,
  scenario: GraphScenario,
  tenantExternalId: string,
  upstream: FakeTenant,
): Promise<void> {
  return onServer(app, 'useGraphAreas', tenantExternalId, upstream.id, scenario.settings, {
    clientId: scenario.app.clientId,
    clientSecret: scenario.secret,
  });
}
