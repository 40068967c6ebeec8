import { unsupportedCloudError } from '../cloud/cloud-error.js';
import type { ServiceContext } from '../core/service-context.js';
import type {
  FailedSyncStep,
  SyncCounts,
  SyncReadContext,
  SyncRunResult,
  SyncStep,
  SyncStepResult,
  SyncTenant,
  SyncWrite,
} from './sync-step.js';

/** Where a sync's writes go: the transaction, the tenant's row in it, and the sync's time. */
export interface SyncTarget {
  readonly ctx: ServiceContext;
  readonly tenant: SyncTenant;
  readonly now: Date;
}

/**
 * What every step read from the cloud, ready to be written; or, when a read failed, the result that says
 * which step's it was (nothing is to be written).
 */
export type SyncReads =
  | { readonly failed: SyncRunResult }
  | {
      readonly failed: null;
      /**
       * Runs each step's write in turn, in `target.ctx.em` (the caller's transaction), and returns each step's
       * result. Stops at the first write that throws: that step is `failed`, the later ones `skipped`, and
       * the caller rolls the transaction back. `progress` receives the share of the steps done, 0 to 1.
       */
      write(target: SyncTarget, progress: (fraction: number) => Promise<void>): Promise<SyncRunResult>;
    };

/**
 * Runs every step's read at once, before anything is written: the sync's transaction opens once the cloud
 * has answered every step. `steps` are in the order `syncStepsOf` gives.
 */
export async function readSyncSteps(steps: readonly SyncStep[], source: SyncReadContext): Promise<SyncReads> {
  const reads = await Promise.allSettled(steps.map((step) => readOrUnavailable(step, source)));
  if (reads.some((read) => read.status === 'rejected')) {
    const results: SyncStepResult[] = steps.map((step, index) => {
      const read = reads[index];
      return read.status === 'rejected'
        ? { step: step.name, status: 'failed', error: read.reason }
        : { step: step.name, status: 'skipped' };
    });
    const failed = results.find((result): result is FailedSyncStep => result.status === 'failed')!;
    return { failed: { steps: results, summary: {}, failed, warnings: [] } };
  }
  const writes = reads.map((read) => (read as PromiseFulfilledResult<SyncWrite>).value);
  return { failed: null, write: (target, progress) => writeSyncSteps(steps, writes, target, progress) };
}

/** A read that the provider has no API for: the step is `unavailable` and the sync goes on without it. */
const UNAVAILABLE = Symbol('unavailable');
type UnavailableWrite = SyncWrite & { [UNAVAILABLE]: string };

/**
 * A step's read; when the provider answers CloudError Unsupported (Microsoft 365 has no API for the area),
 * a write that changes nothing and notes "not available on <provider>" instead of failing the sync.
 */
async function readOrUnavailable(step: SyncStep, source: SyncReadContext): Promise<SyncWrite> {
  try {
    return await step.read(source);
  } catch (error) {
    const unsupported = unsupportedCloudError(error);
    if (!unsupported) throw error;
    const reason = `${step.name}: not available on ${unsupported.provider ?? 'this cloud'} (${unsupported.message})`;
    const write = (async ({ warn }) => {
      warn(reason);
      return {};
    }) as UnavailableWrite;
    write[UNAVAILABLE] = reason;
    return write;
  }
}

async function writeSyncSteps(
  steps: readonly SyncStep[],
  writes: readonly SyncWrite[],
  target: SyncTarget,
  progress: (fraction: number) => Promise<void>,
): Promise<SyncRunResult> {
  const total = steps.reduce((sum, step) => sum + (step.weight ?? 0), 0) || 1;
  const results: SyncStepResult[] = [];
  const summary: SyncCounts = {};
  const warnings: string[] = [];
  let failed: FailedSyncStep | null = null;
  let done = 0;
  for (const [index, step] of steps.entries()) {
    if (failed) {
      results.push({ step: step.name, status: 'skipped' });
      continue;
    }
    const weight = step.weight ?? 0;
    try {
      const counts = await writes[index]({
        ...target,
        progress: (fraction) => progress((done + weight * Math.min(Math.max(fraction, 0), 1)) / total),
        warn: (message) => warnings.push(message),
      });
      const unavailable = (writes[index] as Partial<UnavailableWrite>)[UNAVAILABLE];
      results.push(
        unavailable !== undefined
          ? { step: step.name, status: 'unavailable', reason: unavailable }
          : { step: step.name, status: 'completed', counts },
      );
      if (step.inSummary !== false) Object.assign(summary, counts);
    } catch (error) {
      failed = { step: step.name, status: 'failed', error };
      results.push(failed);
      continue;
    }
    done += weight;
    await progress(done / total);
  }
  return { steps: results, summary, failed, warnings };
}
