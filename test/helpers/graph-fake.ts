import { readFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { randomUUID } from 'node:crypto';
import { CloudError } from '../../src/cloud/cloud-error.js';
import { MICROSOFT365_APPLICATION_PERMISSIONS } from '../../src/cloud/microsoft365/graph-capabilities.js';
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { GraphFake } from '../graph-fake/graph-fake.js';
import { fakeUser, type FakeApp, type FakeTenant } from '../graph-fake/graph-fake-state.js';

/**
 * Jest runs a single test file in its own process (in band), which started before global setup set
 * NODE_EXTRA_CA_CERTS; there the run's authority joins Node's default trust store through
 * tls.setDefaultCACertificates (Node ≥ 24.5), the in-process equivalent. Workers and child processes
 * already trust it from NODE_EXTRA_CA_CERTS.
 */
function trustFakeAuthority(): void {
  const dir = process.env.GRAPH_FAKE_CERT_DIR;
  if (!dir) return;
  const ca = readFileSync(path.join(dir, 'ca.pem'), 'utf8').trim();
  const trusted = tls.getCACertificates('default');
  if (trusted.some((certificate) => certificate.trim() === ca)) return;
  tls.setDefaultCACertificates([...trusted, ca]);
}

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
  const fake = await GraphFake.start();
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
    settings: {
      loginUrl: fake.loginUrl,
      graphUrl: fake.graphUrl,
      defenderUrl: fake.defenderUrl,
      requestTimeoutMs: 5_000,
      maxRetries: 2,
      maxRetryWaitSeconds: 2,
      retryDelaySeconds: 0,
    },
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
