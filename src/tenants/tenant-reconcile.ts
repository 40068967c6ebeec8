import { NotFoundError } from '../core/errors.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import { readSyncSteps } from '../sync/run-sync.js';
import type { SyncCounts, SyncRunResult, SyncStep } from '../sync/sync-step.js';
import { checkSyncConsent } from './tenant-consent.js';
import { Tenant } from './tenant.entity.js';

/** What a sync changed, by kind (e.g. usersCreated: 12); all zeros when nothing changed upstream. */
export type SyncSummary = SyncCounts;

/** Progress once every step has read its part of the tenant; the steps' writes take it to `STEPS_DONE`. */
const READ_DONE = 20;
const STEPS_DONE = 90;

/**
 * Reconciles one tenant from the upstream cloud provider with `steps` (every feature's `syncStep`, in the
 * order `syncStepsOf` gives, src/sync): every step reads its part of the tenant first, then the steps write,
 * in one transaction; `lastSyncedAt` moves and `tenant.synced` is written to the outbox with the summary.
 * `report` receives progress from 0 to 100; it writes on its own connection, so progress is visible while
 * the transaction is still open.
 *
 * Returns each step's result. When a step failed (its read or its write), nothing was written: the result
 * names it and carries its error (`reconcileTenant` throws it). A failure outside the steps (no such tenant,
 * no consent, the database) is thrown.
 */
export async function syncTenant(
  ctx: ServiceContext,
  tenantId: string,
  steps: readonly SyncStep[],
  report: (progress: number) => Promise<void>,
): Promise<SyncRunResult> {
  await report(0);
  // A fork of its own: the caller's EntityManager (holding the sync record) stays out of this
  // transaction, and an enclosing transaction (the demo seed) is joined as a savepoint.
  const work = ctx.em.fork({ keepTransactionContext: true });
  const found = await work.findOne(Tenant, { id: tenantId });
  if (!found) throw new NotFoundError('Tenant', tenantId);
  // Consent first: without the customer's grant nothing of the tenant is read (tenant-consent.ts).
  await checkSyncConsent({ ...ctx, em: work }, found);
  const cloud = await ctx.cloud.forTenant(found.externalId);
  const reads = await readSyncSteps(steps, { cloud, tenant: found, ctx: { ...ctx, em: work } });
  if (reads.failed) return reads.failed;
  await report(READ_DONE);

  let reported = READ_DONE;
  const progress = async (fraction: number) => {
    const percent = READ_DONE + Math.floor((STEPS_DONE - READ_DONE) * fraction);
    if (percent === reported) return;
    reported = percent;
    await report(percent);
  };
  let written: SyncRunResult | null = null;
  try {
    return await work.transactional(async (em) => {
      const tenant = await em.findOneOrFail(Tenant, { id: tenantId });
      const now = ctx.clock.now();
      written = await reads.write({ ctx: { ...ctx, em }, tenant, now }, progress);
      // Thrown, so the transaction rolls back what the steps before it wrote.
      if (written.failed) throw written.failed.error;
      tenant.lastSyncedAt = now;
      await em.flush();
      await emitEvent(
        { ...ctx, em },
        {
          kind: 'tenant.synced',
          severity: 'informational',
          tenant: tenant.eventRef,
          details: written.summary,
          actionPath: `/tenants/${tenant.id}`,
        },
      );
      await report(100);
      return written;
    });
  } catch (error) {
    const run = written as SyncRunResult | null;
    if (run?.failed && run.failed.error === error) return run;
    throw error;
  }
}

/** `syncTenant`, for a caller that wants the summary only: a failed step's error is thrown. */
export async function reconcileTenant(
  ctx: ServiceContext,
  tenantId: string,
  steps: readonly SyncStep[],
  report: (progress: number) => Promise<void>,
): Promise<SyncSummary> {
  const run = await syncTenant(ctx, tenantId, steps, report);
  if (run.failed) throw run.failed.error;
  return run.summary;
}
