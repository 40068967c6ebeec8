import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { unsupportedCloudError } from '../cloud/cloud-error.js';
import {
  ConflictError,
  type FieldProblem,
  invalid,
  NotFoundError,
  NotSupportedError,
} from '../core/errors.js';
import { enqueueJob } from '../core/jobs.js';
import { TRACKED_JOB_QUEUE_ATTEMPTS } from '../core/tracked-job.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { User } from '../users/user.entity.js';
import { assertMayActOnPrivileged } from '../users/privileged-account.js';
import { UserService } from '../users/user.service.js';
import {
  OffboardingStatus,
  OffboardingStepStatus,
  UserOffboarding,
  type OffboardingOptions,
  type StoredStep,
} from './offboarding.entity.js';
import { cloudOperationsOf, STEP_ORDER, stepWanted } from './offboarding.steps.js';
import type { OffboardUserInput } from './offboarding.types.js';

export const USER_OFFBOARDING_TASK = 'user-offboarding';
export const USER_OFFBOARDING_MAX_ATTEMPTS = TRACKED_JOB_QUEUE_ATTEMPTS;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isSecondOffboarding = (error: unknown) =>
  error instanceof UniqueConstraintViolationException && /user_offboardings_one_active/.test(error.message);

/**
 * Offboarding of a user (issue #14 item 5): the request is checked, recorded with its ordered steps and
 * handed to the user-offboarding job (offboarding.task.ts) in one transaction. One unfinished offboarding
 * per user (a partial unique index decides races: 409); a Failed one is retried from its failed step.
 */
export class OffboardingService {
  constructor(private readonly ctx: ServiceContext) {}

  async start(tenantId: string, userId: string, input: OffboardUserInput): Promise<UserOffboarding> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const options: OffboardingOptions = {
      convertMailboxToShared: input.convertMailboxToShared ?? true,
      delegateMailboxToUserId: input.delegateMailboxTo ?? null,
      autoReplyMessage: input.autoReplyMessage?.trim() || null,
      transferFilesTo: null,
      removeLicenses: input.removeLicenses ?? true,
      removeFromGroups: input.removeFromGroups ?? true,
      deleteUser: input.deleteUser ?? false,
    };
    const problems: FieldProblem[] = [];
    if (options.removeLicenses && !options.convertMailboxToShared) {
      problems.push({
        field: 'removeLicenses',
        problem:
          'needs convertMailboxToShared: removing the licenses of an unconverted mailbox loses the mail',
      });
    }
    if (options.delegateMailboxToUserId && !options.convertMailboxToShared) {
      problems.push({ field: 'delegateMailboxTo', problem: 'needs convertMailboxToShared' });
    }
    const transferTo = input.transferFilesTo?.trim() || null;
    if (transferTo && transferTo !== 'manager' && !UUID.test(transferTo)) {
      problems.push({ field: 'transferFilesTo', problem: 'must be "manager" or a user id' });
    }
    if (problems.length > 0) throw invalid(problems);

    const user = await new UserService(this.ctx).get(tenantId, userId); // 404 when not found or deleted
    assertMayActOnPrivileged(this.ctx, user, 'offboard it');
    if (options.delegateMailboxToUserId) {
      await this.otherUser(tenantId, options.delegateMailboxToUserId, user, 'delegateMailboxTo', problems);
    }
    if (transferTo === 'manager') {
      if (user.managerId) options.transferFilesTo = user.managerId;
      else problems.push({ field: 'transferFilesTo', problem: 'the user has no manager' });
    } else if (transferTo) {
      const target = await this.otherUser(tenantId, transferTo, user, 'transferFilesTo', problems);
      options.transferFilesTo = target?.id ?? null;
    }
    if (problems.length > 0) throw invalid(problems);
    await this.assertCloudSupports(tenant, options);

    const steps: StoredStep[] = STEP_ORDER.map((name) => ({
      name,
      status: stepWanted(name, options) ? OffboardingStepStatus.PENDING : OffboardingStepStatus.SKIPPED,
      startedAt: null,
      finishedAt: null,
      error: null,
      result: null,
      attempts: 0,
      retryAt: null,
    }));
    try {
      return await this.ctx.em.transactional(async (em) => {
        const offboarding = em.create(UserOffboarding, {
          ...this.ctx.scope,
          tenantId,
          userId,
          options,
          steps,
          createdBy: this.ctx.actor,
          createdAt: this.ctx.clock.now(),
        });
        await em.flush();
        await this.enqueue(em, offboarding);
        return offboarding;
      });
    } catch (error) {
      if (isSecondOffboarding(error)) throw await this.alreadyRunning(userId);
      throw error;
    }
  }

  async get(tenantId: string, userId: string, id: string): Promise<UserOffboarding> {
    return (await this.find(tenantId, userId, id)).offboarding;
  }

  /**
   * A Failed offboarding runs again from its failed step; the steps that succeeded are not repeated. The
   * house order: permission (the resolver), existence (404), state (409 unless Failed), and only then what
   * the tenant's cloud can do (501, which asks the cloud): a finished or running offboarding answers its
   * state, whatever its cloud.
   */
  async retry(tenantId: string, userId: string, id: string): Promise<UserOffboarding> {
    const { tenant, offboarding } = await this.find(tenantId, userId, id);
    if (offboarding.status !== OffboardingStatus.FAILED) {
      throw new ConflictError(
        `Offboarding ${id} is ${offboarding.status}: only a Failed one can be retried`,
        {
          from: offboarding.status,
          to: OffboardingStatus.QUEUED,
          allowed: [OffboardingStatus.FAILED],
        },
      );
    }
    await this.assertCloudSupports(tenant, offboarding.options);
    try {
      return await this.ctx.em.transactional(async (em) => {
        const claimed = await em.nativeUpdate(
          UserOffboarding,
          { id, status: OffboardingStatus.FAILED },
          // A fresh run count: the retry is a new start, not a crash loop (core/tracked-job.ts).
          { status: OffboardingStatus.QUEUED, failureReason: null, finishedAt: null, runAttempts: 0 },
        );
        if (claimed === 0) throw new ConflictError(`Offboarding ${id} was retried by another request`);
        await this.enqueue(em, offboarding);
        return em.findOneOrFail(UserOffboarding, { id }, { refresh: true });
      });
    } catch (error) {
      if (isSecondOffboarding(error)) throw await this.alreadyRunning(userId);
      throw error;
    }
  }

  /** The offboarding with its tenant: 404 when either is not this organization's (or not the user's). */
  private async find(
    tenantId: string,
    userId: string,
    id: string,
  ): Promise<{ tenant: Tenant; offboarding: UserOffboarding }> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const offboarding = await this.ctx.em.findOne(UserOffboarding, { id, tenantId, userId });
    if (!offboarding) throw new NotFoundError('Offboarding', id);
    return { tenant, offboarding };
  }

  /**
   * 501 NOT_SUPPORTED, before anything is written or sent, when the tenant's cloud has no API for a step the
   * options ask for (Microsoft 365: the mailbox conversion and delegation): an offboarding never stops
   * half-done at a step the cloud cannot do; the caller may leave that step out.
   */
  private async assertCloudSupports(tenant: Tenant, options: OffboardingOptions): Promise<void> {
    const operations = cloudOperationsOf(options);
    if (operations.length === 0) return;
    const cloud = await this.ctx.cloud.forTenant(tenant.externalId);
    try {
      await cloud.userManagement.assertSupports(operations);
    } catch (error) {
      const unsupported = unsupportedCloudError(error);
      if (!unsupported) throw error;
      throw new NotSupportedError(
        `Nothing was started: ${unsupported.message}. Offboard without that step (convertMailboxToShared ` +
          'false, which needs removeLicenses false and no delegateMailboxTo), or do it in the cloud first',
        { capability: unsupported.capability ?? null, provider: unsupported.provider ?? null },
      );
    }
  }

  private enqueue(em: ServiceContext['em'], offboarding: UserOffboarding) {
    return enqueueJob(
      em,
      USER_OFFBOARDING_TASK,
      { offboardingId: offboarding.id, ...this.ctx.scope },
      // One run at a time per offboarding; a retry after completion adds a new job under the same key.
      { jobKey: `user-offboarding:${offboarding.id}`, maxAttempts: USER_OFFBOARDING_MAX_ATTEMPTS },
    );
  }

  private async alreadyRunning(userId: string): Promise<ConflictError> {
    // Raw SQL: the EntityManager still holds the entity whose flush failed.
    const [running] = await this.ctx.em.execute<Array<{ id: string; status: string }>>(
      `select id, status from user_offboardings where user_id = ? and organization_id = ? and environment = ?
          and status in ('Queued', 'Running')`,
      [userId, this.ctx.scope.organizationId, this.ctx.scope.environment],
    );
    return new ConflictError(`User ${userId} is already being offboarded`, {
      offboardingId: running?.id ?? null,
      status: running?.status ?? null,
    });
  }

  private async otherUser(
    tenantId: string,
    id: string,
    user: User,
    field: string,
    problems: FieldProblem[],
  ): Promise<User | null> {
    const other = id === user.id ? null : await this.ctx.em.findOne(User, { id, tenantId, deletedAt: null });
    if (!other) problems.push({ field, problem: 'must be another active user of the tenant' });
    return other;
  }
}
