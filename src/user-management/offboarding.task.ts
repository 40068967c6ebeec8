import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import {
  OffboardingStatus,
  OffboardingStepName,
  OffboardingStepStatus,
  UserOffboarding,
  type StoredStep,
} from './offboarding.entity.js';
import { USER_OFFBOARDING_MAX_ATTEMPTS } from './offboarding.service.js';
import { STEP_ORDER, STEPS } from './offboarding.steps.js';

interface OffboardingPayload extends Scope {
  offboardingId: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs (or resumes) an offboarding: its steps in order, each recorded before (Running, attempts + 1) and
 * after (Succeeded with what it did, or Failed with the error). Steps already Succeeded or Skipped are not
 * run again, so a retry or a job resumed after a crash continues where it stopped. A failing step stops the
 * offboarding as Failed with the step named; the licenses step never runs unless the mailbox conversion
 * succeeded.
 */
export async function runOffboarding(
  orm: MikroORM,
  deps: AppDeps,
  payload: OffboardingPayload,
): Promise<void> {
  const scope: Scope = { organizationId: payload.organizationId, environment: payload.environment };
  const base = createJobContext(orm, deps, scope, 'system:user-offboarding');
  const offboarding = await base.em.findOne(UserOffboarding, { id: payload.offboardingId });
  if (!offboarding || ![OffboardingStatus.QUEUED, OffboardingStatus.RUNNING].includes(offboarding.status))
    return;
  const steps = offboarding.steps.map((step) => ({ ...step }));
  const save = (fields: Partial<UserOffboarding>) =>
    base.em.nativeUpdate(UserOffboarding, { id: offboarding.id }, { ...fields, steps });
  await save({ status: OffboardingStatus.RUNNING, startedAt: offboarding.startedAt ?? deps.clock.now() });

  for (const name of STEP_ORDER) {
    const step = steps.find((s) => s.name === name)!;
    if (step.status === OffboardingStepStatus.SUCCEEDED || step.status === OffboardingStepStatus.SKIPPED)
      continue;
    const refusal = orderRefusal(name, steps);
    Object.assign(step, {
      status: OffboardingStepStatus.RUNNING,
      startedAt: deps.clock.now().toISOString(),
      finishedAt: null,
      attempts: step.attempts + 1,
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
      } satisfies Partial<StoredStep>);
      await save({});
    } catch (error) {
      Object.assign(step, {
        status: OffboardingStepStatus.FAILED,
        finishedAt: deps.clock.now().toISOString(),
        error: messageOf(error),
      } satisfies Partial<StoredStep>);
      await save({
        status: OffboardingStatus.FAILED,
        failureReason: `Step ${name} failed: ${messageOf(error)}`,
        finishedAt: deps.clock.now(),
      });
      return; // recorded; the client retries (POST .../offboard/:id/retry)
    }
  }
  await save({ status: OffboardingStatus.COMPLETED, finishedAt: deps.clock.now() });
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
    const offboardingPayload = payload as OffboardingPayload;
    try {
      await runOffboarding(orm, deps, offboardingPayload);
    } catch (error) {
      // Our own bookkeeping failed (database): graphile-worker retries; the last attempt records why.
      if (helpers.job.attempts >= (helpers.job.max_attempts ?? USER_OFFBOARDING_MAX_ATTEMPTS)) {
        await orm.em.fork().nativeUpdate(
          UserOffboarding,
          { id: offboardingPayload.offboardingId },
          {
            status: OffboardingStatus.FAILED,
            finishedAt: deps.clock.now(),
            failureReason: `Stopped after ${helpers.job.attempts} attempts: ${messageOf(error)}`,
          },
          { filters: false },
        );
      }
      throw error;
    }
  };
}
