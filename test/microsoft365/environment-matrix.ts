import { randomUUID } from 'node:crypto';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { GraphScenario } from '../helpers/graph-fake.js';
import type { SharedApp } from '../helpers/shared-suite.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';
import { sharedLiveWorld } from './live-kit.js';

/**
 * The same organization's two environments on the jest worker's shared live server (sharedLiveWorld,
 * live-kit.ts: its app, jobs running, and its Graph fake reset for the file), for tests that run once per environment
 * (`describe.each(matrix.environments)`): the sandbox on the simulated cloud, and the live environment
 * connected to the HTTPS Graph fake. Each has a customer tenant onboarded (GraphQL) and synced (REST job),
 * the Admin key of its environment, what its cloud holds for a user, and the Graph requests made since the
 * last `clear()` — none, ever, for the sandbox.
 */
export interface UpstreamUser {
  userPrincipalName: string;
  accountEnabled: boolean;
  jobTitle: string | null;
  deleted: boolean;
  userType: 'Member' | 'Guest';
}

export interface MatrixEnvironment {
  name: 'sandbox' | 'live';
  key: string;
  tenantId: string;
  /** The customer tenant's id in its cloud. */
  externalId: string;
  /** The customer's default domain (new users' UPNs). */
  domain: string;
  /** The user as the cloud holds it; null once purged (or never there). */
  upstream(externalId: string): Promise<UpstreamUser | null>;
  /**
   * The Graph requests since `clear()`, `{id}` standing for `externalId` when given: the live environment's
   * calls; the sandbox must make none.
   */
  graphCalls(externalId?: string): string[];
  clear(): void;
  sync(): Promise<SyncBody>;
}

export interface EnvironmentMatrix {
  app: SharedApp;
  scenario: GraphScenario;
  org: OrganizationWithKeys;
  environments: MatrixEnvironment[];
  stop(): Promise<void>;
}

const ONBOARD = `mutation Onboard($externalId: String!) { onboardTenant(input: { externalId: $externalId }) { id domain } }`;

async function onboard(
  app: SharedApp,
  key: string,
  externalId: string,
): Promise<{ id: string; domain: string }> {
  const res = await app.graphql<{ onboardTenant: { id: string; domain: string } }>(key, ONBOARD, {
    externalId,
  });
  if (!res.body.data?.onboardTenant) throw new Error(`onboarding failed: ${JSON.stringify(res.body.errors)}`);
  return res.body.data.onboardTenant;
}

export async function startEnvironmentMatrix(): Promise<EnvironmentMatrix> {
  // The organization's live environment connected to the fake's partner app; device actions polled every 0.5 s
  // (the Defender fake moves an action on each read): the same states, 4.5 s less a wait.
  const { app, scenario, org } = await sharedLiveWorld({ jobs: true });
  const fake = scenario.fake;

  // The sandbox's customer: a small simulated tenant that granted the organization.
  const cloud = simulatedCloud(app);
  const sandboxExternalId = randomUUID();
  await cloud.createTenant({
    externalId: sandboxExternalId,
    displayName: 'Fabrikam (sandbox)',
    domains: [`sandbox-${sandboxExternalId.slice(0, 8)}.example.com`],
    seed: 7,
    employees: 5,
  });
  await cloud.consent.grantDelegatedAccess(sandboxExternalId, org.organization.id);

  const graphCalls = (externalId?: string) =>
    fake.graphCalls().map((call) => (externalId ? call.split(externalId).join('{id}') : call));
  const environment = async (
    name: MatrixEnvironment['name'],
    key: string,
    externalId: string,
    upstream: MatrixEnvironment['upstream'],
  ): Promise<MatrixEnvironment> => {
    const tenant = await onboard(app, key, externalId);
    const env: MatrixEnvironment = {
      name,
      key,
      tenantId: tenant.id,
      externalId,
      domain: tenant.domain,
      upstream,
      graphCalls,
      clear: () => fake.clearRequests(),
      sync: () => syncAndWait(app, org, tenant.id, 60_000, key),
    };
    const first = await env.sync();
    if (first.status !== 'Completed') throw new Error(`the first ${name} sync failed: ${first.error}`);
    return env;
  };

  const sandbox = await environment('sandbox', org.keys.admin, sandboxExternalId, async (externalId) => {
    const user = (await cloud.listUsers(sandboxExternalId)).find(
      (record) => record.externalId === externalId,
    );
    return user
      ? {
          userPrincipalName: user.userPrincipalName,
          accountEnabled: user.accountEnabled,
          jobTitle: user.jobTitle,
          deleted: user.deletedAt !== null,
          userType: user.userType,
        }
      : null;
  });
  const live = await environment('live', org.liveAdminKey, scenario.consented.id, async (externalId) => {
    const record = scenario.consented.users.find((candidate) => candidate.user.id === externalId);
    return record
      ? {
          userPrincipalName: record.user.userPrincipalName ?? '',
          accountEnabled: record.user.accountEnabled ?? true,
          jobTitle: record.user.jobTitle ?? null,
          deleted: record.deleted,
          userType: record.user.userType === 'Guest' ? 'Guest' : 'Member',
        }
      : null;
  });
  return {
    app,
    scenario,
    org,
    environments: [sandbox, live],
    // The server and the fake are the worker's.
    stop: async () => undefined,
  };
}
