/**
 * What a test does with the app's own objects (its ORM and entity classes, services, the simulated cloud's
 * store) rather than over HTTP: the factories and a few in-process steps of the kits. A file with a server of
 * its own runs them here with its TestApp; on the jest worker's shared server (shared-server.ts) the server
 * runs them, since only its ORM knows its entity classes. Test files and kits call them through `onServer`
 * (on-server.ts), which loads this module only for a TestApp.
 */
import { ApiKeyAuthenticator } from '../../src/api-keys/api-key.auth.js';
import {
  BACKUP_CATALOG_ACTOR,
  catalogTenant,
  refreshTenantSnapshots,
} from '../../src/backup/backup-catalog.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { scheduleDueImports } from '../../src/compliance/connector-import.js';
import { createJobContext } from '../../src/context.js';
import { recordEvent, type NewEvent } from '../../src/core/events/record-event.js';
import type { Scope } from '../../src/core/scope.js';
import { FEATURE_ROUTES, SYNC_STEPS, VERSIONED_ROUTES } from '../../src/features.js';
import { fastPathAnswers } from '../../src/http/graphql-fast-path.js';
import { PortalAggregates } from '../../src/portal/portal-aggregates.js';
import { reconcileRecommendations } from '../../src/recommendations/recommendation-reconcile.js';
import { expireSnoozes as expireRecommendationSnoozes } from '../../src/recommendations/recommendation-snooze.task.js';
import { Tenant } from '../../src/tenants/tenant.entity.js';
import { reconcileTenant, type SyncSummary } from '../../src/tenants/tenant-reconcile.js';
import type { CloudProviders } from '../../src/cloud/cloud-provider.js';
import { runOffboarding } from '../../src/user-management/offboarding.task.js';
import { RestoreRunner } from '../../src/backup/restore-runner.js';
import { pushBarrierApplication } from '../../src/info-barriers/barrier-application.task.js';
import {
  giveUpApplyOperation,
  runApplyOperation,
} from '../../src/recommendations/recommendation-apply.task.js';
import { recordSecureScores } from '../../src/secure-score/secure-score.task.js';
import { taskList } from '../../src/tasks.js';
import { createLicenseUser, createSku } from '../factories/licenses.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth-records.js';
import { createApiKey, createOrganization, createOrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, grantConsent } from '../factories/tenants.js';
import { cloudUserOf, createGroup, createUser, giveLicense } from '../factories/users.js';
import { createGuest } from '../users/guest-factory.js';
import type { CliResult } from './cli.js';
import { SERVER_SIDE_BUDGET } from './server-side-budget.js';
import { SERVER_SIDE_CLOUD } from './server-side-cloud.js';
import { SERVER_SIDE_DOCUMENTS } from './server-side-documents.js';
import { SERVER_SIDE_JOBS } from './server-side-jobs.js';
import { SERVER_SIDE_ORM } from './server-side-orm.js';
import { SERVER_SIDE_ROWS } from './server-side-rows.js';
import { SERVER_SIDE_LEAN } from './server-side-lean.js';
import { SERVER_SIDE_SCHEMA } from './server-side-schema.js';
import { SERVER_SIDE_SERVICES } from './server-side-services.js';
import { SERVER_SIDE_SYNC } from './server-side-sync.js';
import { createTestDatabase, type TestApp } from './test-app.js';

/** Runs the tenant sync in-process (as the job would) and returns its summary. */
function syncTenant(app: TestApp, scope: Scope, tenantId: string): Promise<SyncSummary> {
  const ctx = createJobContext(app.orm, app.deps, scope, 'system:test-sync');
  return reconcileTenant(ctx, tenantId, SYNC_STEPS, async () => undefined);
}

/** What the hourly backup catalog job does, for one tenant. */
function refreshCatalog(app: TestApp, tenant: Tenant): Promise<number> {
  const scope = { organizationId: tenant.organizationId, environment: tenant.environment };
  return refreshTenantSnapshots(createJobContext(app.orm, app.deps, scope, 'test'), tenant);
}

/**
 * The hourly catalog job's run for one tenant of `scope` (catalogTenant, as refreshAllSnapshotCatalogs runs it for
 * each tenant): a tenant without a backup service lists nothing. For a file on a shared server, whose database
 * holds other files' tenants (and, on the shared live server, tenants the Graph fake has forgotten).
 */
async function runCatalogJobFor(app: TestApp, scope: Scope, tenantId: string): Promise<number> {
  const ctx = createJobContext(app.orm, app.deps, scope, BACKUP_CATALOG_ACTOR);
  return catalogTenant(ctx, await ctx.em.findOneOrFail(Tenant, tenantId));
}

/** The compliance connectors' scheduler tick: queues the imports that are due. */
function scheduleImports(app: TestApp): Promise<unknown> {
  return scheduleDueImports(app.orm, app.deps);
}

/** The snooze cron's run: reopens the recommendations whose snooze ended. */
function expireSnoozes(app: TestApp): Promise<number> {
  return expireRecommendationSnoozes(app.orm, app.deps);
}

/** The portal's one-minute job: recounts the tenants that writes marked. */
function recountMarkedTenants(app: TestApp): Promise<number> {
  return new PortalAggregates(app.orm.em.fork(), app.clock).refreshDirty();
}

/** The portal's full recount (every tenant of the database: for a server of the file's own). */
function recountAllTenants(app: TestApp): Promise<number> {
  return new PortalAggregates(app.orm.em.fork(), app.clock).refreshAll();
}

/**
 * One run of the hourly secure score job (recordSecureScores), over every tenant of the server's database, as in
 * production: its work is SQL on the database only (no cloud call), and a file reads only its own tenants' days.
 */
function recordSecureScoreDays(app: TestApp): Promise<number> {
  return recordSecureScores(app.orm, app.deps);
}

/** Copies the tenant's security controls from the simulated cloud, as a sync does. */
async function syncPosture(app: TestApp, tenant: Tenant): Promise<void> {
  const controls = await (app.deps.clouds as SimulatedCloud).listSecurityControls(tenant.externalId);
  await reconcileRecommendations(
    app.orm.em.fork(),
    { organizationId: tenant.organizationId, environment: tenant.environment },
    tenant.id,
    controls,
    app.clock.now(),
  );
}

/** Commits one domain event through the one emission point (outbox and NOTIFY), as any service would. */
async function commitEvent(app: TestApp, scope: Scope, event: NewEvent): Promise<string> {
  const row = await app.orm.em.fork().transactional((em) => recordEvent(em, scope, app.deps, event));
  return row.id;
}

/**
 * One run of the offboarding job (its queue attempt `job`), on the app's cloud or on `clouds` (a test's gated
 * copy of it, test/helpers/cloud-gate.ts).
 */
function offboard(
  app: TestApp,
  payload: Parameters<typeof runOffboarding>[2],
  job?: Parameters<typeof runOffboarding>[3],
  clouds?: CloudProviders,
): Promise<void> {
  return runOffboarding(app.orm, clouds ? { ...app.deps, clouds } : app.deps, payload, job);
}

/** One run of the restore job (its queue attempt `job`), as graphile-worker would run it. */
function runRestore(
  app: TestApp,
  scope: Scope,
  restoreJobId: string,
  job?: Parameters<RestoreRunner['run']>[0],
): Promise<void> {
  return new RestoreRunner(createJobContext(app.orm, app.deps, scope, 'test:worker'), restoreJobId).run(job);
}

/** One run of the information barrier apply job (its queue attempt `job`). */
function applyBarriers(
  app: TestApp,
  scope: Scope,
  applicationId: string,
  job?: Parameters<typeof pushBarrierApplication>[2],
): Promise<void> {
  const ctx = createJobContext(app.orm, app.deps, scope, 'system:info-barrier-apply');
  return pushBarrierApplication(ctx, applicationId, job);
}

/** One run of the recommendation apply job, on the app's cloud or on `clouds` (a test's gated copy of it). */
function applyRecommendation(
  app: TestApp,
  scope: Scope,
  operationId: string,
  clouds?: CloudProviders,
): Promise<void> {
  const deps = clouds ? { ...app.deps, clouds } : app.deps;
  return runApplyOperation(
    createJobContext(app.orm, deps, scope, 'system:recommendation-apply'),
    operationId,
  );
}

/** What the apply job does when the queue gives up on it. */
function giveUpRecommendationApply(app: TestApp, scope: Scope, operationId: string, reason: string) {
  const em = createJobContext(app.orm, app.deps, scope, 'test').em;
  return giveUpApplyOperation(em, operationId, reason, app.clock.now());
}

/** A new API key authenticator (its own cache) on the app's ORM and clock. */
async function apiKeyAuthenticator(app: TestApp): Promise<ApiKeyAuthenticator> {
  return new ApiKeyAuthenticator(app.orm, app.clock);
}

/** The app's REST routes (the versioned ones first): method, path and GraphQL document. */
async function restRoutes(): Promise<Array<{ method: string; path: string; operation: string }>> {
  return [...VERSIONED_ROUTES, ...FEATURE_ROUTES].map(({ method, path, operation }) => ({
    method,
    path,
    operation,
  }));
}

/** How many requests /graphql's fast path has answered in this process (src/http/graphql-fast-path.ts). */
async function fastPathAnswered(): Promise<number> {
  return fastPathAnswers();
}

/** A database of the file's own, cloned from the template (seeded: the `demo` organization), for the CLI. */
function createDatabase(_app: TestApp): Promise<string> {
  return createTestDatabase();
}

/**
 * A CLI command in the server's process (runCliInProcessWithEnv, test/helpers/cli.ts: the CLI's program with its
 * own ORM on `databaseUrl` and the environment `extra` adds, its output captured), so that a file on a shared
 * server does not evaluate the app's modules for it. Loaded on the first call.
 */
async function runCli(
  _app: TestApp,
  databaseUrl: string,
  extra: Record<string, string>,
  args: string[],
): Promise<CliResult> {
  const { runCliInProcessWithEnv } = await import('./cli.js');
  return runCliInProcessWithEnv(databaseUrl, { ...extra }, ...args);
}

/** The names of the server's job tasks. */
async function taskNames(app: TestApp): Promise<string[]> {
  return Object.keys(taskList(app.orm, app.deps));
}

export const SERVER_SIDE = {
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
  createMember,
  createOAuthClient,
  issueAccessToken,
  createGuest,
  syncTenant,
  refreshCatalog,
  runCatalogJobFor,
  scheduleImports,
  expireSnoozes,
  recountMarkedTenants,
  recountAllTenants,
  recordSecureScoreDays,
  syncPosture,
  commitEvent,
  runOffboarding: offboard,
  runRestore,
  applyBarriers,
  applyRecommendation,
  giveUpRecommendationApply,
  taskNames,
  apiKeyAuthenticator,
  restRoutes,
  fastPathAnswers: fastPathAnswered,
  createDatabase,
  runCli,
  ...SERVER_SIDE_ORM,
  ...SERVER_SIDE_ROWS,
  ...SERVER_SIDE_JOBS,
  ...SERVER_SIDE_SERVICES,
  ...SERVER_SIDE_SCHEMA,
  ...SERVER_SIDE_LEAN,
  ...SERVER_SIDE_CLOUD,
  ...SERVER_SIDE_DOCUMENTS,
  ...SERVER_SIDE_SYNC,
  ...SERVER_SIDE_BUDGET,
};

type ServerSide = typeof SERVER_SIDE;
/** An operation with the app already given. */
type Bound<F> = F extends (app: TestApp, ...rest: infer A) => infer R ? (...rest: A) => R : never;
export type BoundServerSide = { [K in keyof ServerSide]: Bound<ServerSide[K]> };

/** The operations bound to one app (the shared server's). */
export function bindServerSide(app: TestApp): BoundServerSide {
  return Object.fromEntries(
    Object.entries(SERVER_SIDE).map(([name, operation]) => [
      name,
      (...rest: unknown[]) => (operation as (app: TestApp, ...rest: unknown[]) => unknown)(app, ...rest),
    ]),
  ) as BoundServerSide;
}
