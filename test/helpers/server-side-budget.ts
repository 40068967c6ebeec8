/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for the cloud call budgets' tests on a server of the
 * file's own (test/microsoft365/live-budget-waits): the app's budget taken from, a Graph security client on a
 * budget the file configures (its clock and sleep), and work run as a request or as a job would run it. They use
 * the server's modules, whose async contexts (the organization session, the waits' recording) are the ones the
 * server's clients read: the file's own copies of those modules would be other contexts.
 */
import type { AppCredentials } from '../../src/cloud/microsoft365/graph-token.js';
import {
  CloudCallBudget,
  cloudCallBudgetOf,
  recordingCloudWaits,
  type CloudCallBucket,
  type CloudCallBudgetSettings,
  type CloudWaits,
} from '../../src/cloud/cloud-call-budget.js';
import { graphSecurity } from '../../src/cloud/microsoft365/graph-security.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import {
  microsoft365SettingsOf,
  type Microsoft365Settings,
} from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { Clock } from '../../src/core/clock.js';
import { runInOrganizationSession } from '../../src/core/db-session.js';
import type { Scope } from '../../src/core/scope.js';
import type { TestApp } from './test-app.js';

/** `times` calls of `bucket` taken from the app's own budget (cloudCallBudgetOf), as another instance would. */
async function takeCloudCallBudget(
  app: TestApp,
  clientId: string,
  tenantExternalId: string,
  bucket: CloudCallBucket,
  times: number,
): Promise<void> {
  const budget = cloudCallBudgetOf(app.orm, app.deps);
  for (let call = 0; call < times; call++) await budget.take(clientId, tenantExternalId, bucket);
}

/**
 * Graph's security client for tenant `tenantId` (its Defender calls included) on a new budget of the app's
 * database, with the file's `clock` and `budget` settings (limits, a `sleep` that moves that clock).
 */
async function budgetedGraphSecurity(
  app: TestApp,
  microsoft365: Partial<Microsoft365Settings>,
  credentials: AppCredentials,
  tenantId: string,
  clock: Clock,
  budget: Partial<CloudCallBudgetSettings>,
): Promise<ReturnType<typeof graphSecurity>> {
  const budgets = new CloudCallBudget(app.orm, clock, budget);
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365 }));
  return graphSecurity(transport.forTenant(credentials, tenantId, budgets.forApp(credentials.clientId)));
}

/** `work` as a request of `scope` runs (inside its organization session). */
function inOrganizationSession<T>(_app: TestApp, scope: Scope, work: () => Promise<T>): Promise<T> {
  return runInOrganizationSession(scope, work);
}

/** `work` as a job runs it (no session), with the cloud waits it made recorded per tenant. */
async function withCloudWaits<T>(_app: TestApp, work: () => Promise<T>): Promise<CloudWaits> {
  return (await recordingCloudWaits(work)).waits;
}

export const SERVER_SIDE_BUDGET = {
  takeCloudCallBudget,
  budgetedGraphSecurity,
  inOrganizationSession,
  withCloudWaits,
};
