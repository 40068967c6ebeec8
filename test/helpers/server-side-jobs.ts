/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files about the app's scheduled work: the cron
 * items the job runner schedules, any task of its list run once by hand, and the jobs' own functions (over every
 * organization, or one tenant's step of them), made with the server's modules (src/tasks.ts loads every
 * feature) and its ORM and clock. A job over every organization belongs on a server with a database of the
 * file's own (a realm app) when the file counts what it did.
 */
import type { CronItem, JobHelpers, Task } from 'graphile-worker';
import { refreshAllSnapshotCatalogs as refreshAllCatalogs } from '../../src/backup/backup-catalog.js';
import type { CloudProviders } from '../../src/cloud/cloud-provider.js';
import type { CloudSignInRecord } from '../../src/cloud/provider.js';
import {
  syncEveryTenantsContacts as syncEveryContacts,
  syncTenantContacts as syncContacts,
  type ContactSyncSummary,
} from '../../src/contacts/contact-sync.js';
import { createJobContext } from '../../src/context.js';
import { MovableClock } from '../../src/core/clock.js';
import type { Scope } from '../../src/core/scope.js';
import { PortalAggregates } from '../../src/portal/portal-aggregates.js';
import { announceRiskySignIns as announce } from '../../src/security/risky-signins.js';
import { Tenant } from '../../src/tenants/tenant.entity.js';
import { runUserImport as runImport } from '../../src/user-management/user-import.task.js';
import {
  purgeExpiredUsers as purgeUsers,
  type PurgeLimits,
  type PurgeResult,
} from '../../src/users/deleted-user-purge.task.js';
import { completeBarrierApplications as completeApplications } from '../../src/info-barriers/barrier-application.task.js';
import {
  RETENTION,
  runHousekeeping as runHousekeepingJob,
  type HousekeepingResult,
} from '../../src/housekeeping/housekeeping.task.js';
import { cronItems as CRON_ITEMS, taskList } from '../../src/tasks.js';
import type { TestApp } from './test-app.js';

/** Every feature's cron items, as the job runner schedules them (src/tasks.ts). */
async function cronItems(): Promise<CronItem[]> {
  return CRON_ITEMS;
}

/** The housekeeping job's retention periods (src/housekeeping/housekeeping.task.ts). */
async function housekeepingRetention(): Promise<typeof RETENTION> {
  return RETENTION;
}

/** One run of the housekeeping job, over every organization of the server's database, on its clock. */
function runHousekeeping(app: TestApp): Promise<HousekeepingResult> {
  return runHousekeepingJob(app.orm, app.clock);
}

/**
 * One run of the information barriers' progress cron: completes the applications of every organization whose
 * time has come on the server's clock.
 */
async function completeBarrierApplications(app: TestApp): Promise<void> {
  await completeApplications(app.orm, app.deps);
}

/**
 * One run of the server's task `name` (src/tasks.ts's list, made with its ORM and dependencies) with `payload`,
 * as graphile-worker would call it; `helpers` are the file's (a logger that records, test/helpers/job-queue.ts's
 * `jobHelpers`...).
 */
async function runTask(app: TestApp, name: string, payload: unknown, helpers: Partial<JobHelpers>) {
  const task = taskList(app.orm, app.deps)[name];
  if (!task) throw new Error(`No task ${name} in src/tasks.ts`);
  await task(payload, helpers as JobHelpers);
}

/**
 * The server's task `name` itself (src/tasks.ts's list, made once with its ORM and dependencies), for a file that
 * calls it by hand, several runs at once: they share what the task shares between its runs (the webhook delivery
 * task's statement batches), which one `runTask` each would not. Called with the file's payloads and job helpers.
 */
async function taskOf(app: TestApp, name: string): Promise<Task> {
  const task = taskList(app.orm, app.deps)[name];
  if (!task) throw new Error(`No task ${name} in src/tasks.ts`);
  return task;
}

/** One run of the hourly deleted-user purge, over every organization (its batch limits, when given). */
function purgeExpiredUsers(app: TestApp, limits?: PurgeLimits): Promise<PurgeResult> {
  return purgeUsers(app.orm, app.deps, limits);
}

/** The half-hourly contact sync's run over every organization's tenants. */
function syncEveryTenantsContacts(app: TestApp): Promise<ContactSyncSummary> {
  return syncEveryContacts(app.orm, app.deps);
}

/** The contact sync of one tenant of `scope` (its step of the half-hourly run). */
async function syncTenantContacts(app: TestApp, scope: Scope, tenantId: string): Promise<ContactSyncSummary> {
  const ctx = createJobContext(app.orm, app.deps, scope, 'system:test');
  return syncContacts(ctx, await ctx.em.findOneOrFail(Tenant, tenantId));
}

/** The hourly backup catalog job's run over every tenant of the server's database: the snapshots taken. */
function refreshAllSnapshotCatalogs(app: TestApp): Promise<number> {
  return refreshAllCatalogs(app.orm, app.deps);
}

/** The portal's five-minute folding of the activity counts (every tenant's; no figure changes). */
function foldActivityCounts(app: TestApp): Promise<void> {
  return new PortalAggregates(app.orm.em.fork(), app.clock).foldActivityCounts();
}

/** Each of `tenantIds` recounted as the portal's recount does it, on a clock at `at` (the server's is not moved). */
async function recountTenantsAt(app: TestApp, tenantIds: string[], at: Date): Promise<void> {
  const clock = new MovableClock(at);
  for (const tenantId of tenantIds)
    await app.orm.em
      .fork()
      .transactional((tx) => new PortalAggregates(tx, clock).recountInTransaction(tenantId));
}

/**
 * One run of the user import job for the import `importId` of `scope` (no queue attempt: a first run), on the
 * app's cloud or on `clouds` (a test's gated copy of it, test/helpers/cloud-gate.ts), told to stop by
 * `abortSignal` when given (the worker's SIGTERM).
 */
function runUserImport(
  app: TestApp,
  scope: Scope,
  importId: string,
  options: { clouds?: CloudProviders; abortSignal?: AbortSignal } = {},
): Promise<void> {
  const deps = options.clouds ? { ...app.deps, clouds: options.clouds } : app.deps;
  return runImport(app.orm, deps, { importId, ...scope }, undefined, options.abortSignal);
}

/** The sync's risky sign-in step for `signIns` of the tenant `tenantId`, in a transaction: the events recorded. */
async function announceRiskySignIns(
  app: TestApp,
  scope: Scope,
  tenantId: string,
  signIns: CloudSignInRecord[],
): Promise<number> {
  const ctx = createJobContext(app.orm, app.deps, scope, 'test');
  const tenant = await ctx.em.findOneOrFail(Tenant, { id: tenantId });
  return ctx.em.transactional((em) => announce({ ...ctx, em }, tenant, signIns));
}

export const SERVER_SIDE_JOBS = {
  cronItems,
  housekeepingRetention,
  runHousekeeping,
  completeBarrierApplications,
  runTask,
  taskOf,
  purgeExpiredUsers,
  syncEveryTenantsContacts,
  syncTenantContacts,
  refreshAllSnapshotCatalogs,
  foldActivityCounts,
  recountTenantsAt,
  runUserImport,
  announceRiskySignIns,
};
