import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { retryableCloudError } from '../cloud/cloud-error.js';
import { isDatabaseUnavailable } from '../core/database-outage.js';
import { queueRetryDelaySeconds } from '../core/jobs.js';
import {
  LostRunError,
  runTrackedJob,
  type TrackedJobKind,
  type TrackedJobOptions,
} from '../core/tracked-job.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import {
  OffboardingStatus,
  OffboardingStepName,
  OffboardingStepStatus,
  UserOffboarding,
  type StoredStep,
} from './offboarding.entity.js';
import { STEP_ORDER, STEPS } from './offboarding.steps.js';

interface OffboardingPayload extends Scope {
  offboardingId: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const USER_OFFBOARDING_JOB: TrackedJobKind<UserOffboarding> = {
  name: 'offboarding',
  entity: UserOffboarding,
  runnable: [OffboardingStatus.QUEUED, OffboardingStatus.RUNNING],
  running: OffboardingStatus.RUNNING,
  failed: OffboardingStatus.FAILED,
  completed: OffboardingStatus.COMPLETED,
  reasonColumn: 'failureReason',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'finishedAt',
};

/**
 * Runs (or resumes) an offboarding through core/tracked-job.ts: its steps in order, each recorded before
 * (Running, attempts + 1) and after (Succeeded with what it did, or Failed with the error). The steps are
 * the per-item progress: those already Succeeded or Skipped are not run again, so a retry or a run resumed
 * after a crash continues where it stopped (the checkpoint names the last step done). A failing step stops
 * the offboarding as Failed with the step named; the licenses step never runs unless the mailbox
 * conversion succeeded. A step the cloud throttled (a retryable CloudError) instead waits, visibly (status
 * Waiting, `retryAt`), for the queue to run the job again, up to the queue's attempts
 * (USER_OFFBOARDING_MAX_ATTEMPTS); on the last one it fails as any step does (docs/decisions.md).
 */
export async function runOffboarding(
  orm: MikroORM,
  deps: AppDeps,
  payload: OffboardingPayload,
  job?: TrackedJobOptions<UserOffboarding>['job'],
  abortSignal?: AbortSignal,
): Promise<void> {
  const scope: Scope = { organizationId: payload.organizationId, environment: payload.environment };
  const base = createJobContext(orm, deps, scope, 'system:user-offboarding');
  const options = {
    em: base.em,
    kind: USER_OFFBOARDING_JOB,
    id: payload.offboardingId,
    clock: deps.clock,
    job,
    abortSignal,
  };
  await runTrackedJob(options, async (run) => {
    const offboarding = run.row;
    const steps = offboarding.steps.map((step) => ({ ...step }));
    // Fenced: a stale run (another took the offboarding over) writes nothing and stops.
    const save = async (fields: Partial<UserOffboarding>) => {
      const where = { id: offboarding.id, runToken: run.token };
      if ((await base.em.nativeUpdate(UserOffboarding, where, { ...fields, steps })) === 0)
        throw new LostRunError(USER_OFFBOARDING_JOB.name);
    };

    for (const name of STEP_ORDER) {
      const step = steps.find((s) => s.name === name)!;
      if (step.status === OffboardingStepStatus.SUCCEEDED || step.status === OffboardingStepStatus.SKIPPED)
        continue;
      run.checkStop(); // SIGTERM: stop between two steps; the queue resumes at this one
      const refusal = orderRefusal(name, steps);
      Object.assign(step, {
        status: OffboardingStepStatus.RUNNING,
        startedAt: deps.clock.now().toISOString(),
        finishedAt: null,
        attempts: step.attempts + 1,
        retryAt: null,
      } satisfies Partial<StoredStep>);
      await save({});
      try {
        if (refusal) throw new Error(refusal);
        // A fresh context per step: the actor is who asked, and each step reads current rows.
        const ctx = createJobContext(orm, deps, scope, offboarding.createdBy);
        const tenant = await ctx.em.findOneOrFail(Tenant, { id: offboarding.tenantId });
        const user = await ctx.em.findOneOrFail(User, { id: offboarding.userId });
        const result = await STEPS[name]({ ctx, tenant, user, offboarding });
        Object.assign(step, {
          status: OffboardingStepStatus.SUCCEEDED,
          finishedAt: deps.clock.now().toISOString(),
          error: null,
          result,
          retryAt: null,
        } satisfies Partial<StoredStep>);
        await save({});
        await run.save({ lastStep: name }); // progress: this run is not counted as a dead one
      } catch (error) {
        if (error instanceof LostRunError) throw error;
        if (isDatabaseUnavailable(error)) throw error; // not the step's fault: the queue retries the job
        const cloudBusy = retryableCloudError(error);
        if (cloudBusy && job && !run.lastAttempt) {
          // A throttled (or briefly failing) cloud is waited out, as every tracked job does: thrown, the job
          // is run again after the Retry-After (core/jobs.ts) and resumes at this step, the ones done stay done.
          const now = deps.clock.now();
          const waitMs = queueRetryDelaySeconds(job.attempts, cloudBusy.retryAfterSeconds) * 1000;
          Object.assign(step, {
            status: OffboardingStepStatus.WAITING,
            finishedAt: now.toISOString(),
            error: messageOf(error),
            retryAt: new Date(now.getTime() + Math.ceil(waitMs)).toISOString(),
          } satisfies Partial<StoredStep>);
          await save({});
          throw error;
        }
        // Without a queue (a direct run) or on its last attempt, the wait is over: the step failed.
        const why = cloudBusy && job ? `gave up after ${job.attempts} attempts: ` : '';
        Object.assign(step, {
          status: OffboardingStepStatus.FAILED,
          finishedAt: deps.clock.now().toISOString(),
          error: `${why}${messageOf(error)}`,
          retryAt: null,
        } satisfies Partial<StoredStep>);
        await save({
          status: OffboardingStatus.FAILED,
          failureReason: `Step ${name} failed: ${why}${messageOf(error)}`,
          finishedAt: deps.clock.now(),
        });
        return; // recorded; the client retries (POST .../offboard/:id/retry)
      }
    }
  });
}

/** Licenses are removed only after the mailbox became shared, or its mail would be lost. */
function orderRefusal(name: OffboardingStepName, steps: StoredStep[]): string | null {
  if (name !== OffboardingStepName.REMOVE_LICENSES) return null;
  const mailbox = steps.find((s) => s.name === OffboardingStepName.CONVERT_MAILBOX)!;
  return mailbox.status === OffboardingStepStatus.SUCCEEDED
    ? null
    : 'licenses are removed only after the mailbox was converted to shared';
}

export function userOffboardingTask(orm: MikroORM, deps: AppDeps): Task {
  return async (payload, helpers) => {
    await runOffboarding(orm, deps, payload as OffboardingPayload, helpers.job, helpers.abortSignal);
  };
}
