import { InvalidRequestError, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { BlockedEnrollmentAttempt } from './blocked-enrollment.entity.js';
import { assertBlockedAttemptsAvailable } from './enrollment-cloud.js';
import { evaluateEnrollment, type EnrollmentDecision } from './enrollment-evaluation.js';
import { defaultPolicy, enrollingUsers, policiesOf } from './enrollment-facts.js';
import type { EvaluateEnrollmentInput } from './enrollment-policy.types.js';
import type { BlockReason, EnrollmentPlatform } from './enrollment.enums.js';

export interface BlockedAttemptFilter {
  reason?: BlockReason | null;
  platform?: EnrollmentPlatform | null;
  from?: Date | null;
  to?: Date | null;
}

/**
 * Enrollment attempts against a tenant's policies (SPEC 4.2, 4.4; docs/devices.md): the dry evaluation of
 * one, and the blocked ones recorded by sync.
 */
export class EnrollmentAttemptsService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Decides an attempt as sync would, writing nothing (SPEC 4.4; enrollment-evaluation.ts): a tenant without
   * its default yet is evaluated with the default it will get.
   */
  async evaluate(tenantId: string, input: EvaluateEnrollmentInput): Promise<EnrollmentDecision> {
    const problems = (input.deviceCounts ?? []).flatMap((row, i) =>
      Number.isInteger(row.count) && row.count >= 0 && row.count <= 10_000
        ? []
        : [{ field: `input.deviceCounts[${i}].count`, problem: 'must be a whole number from 0 to 10000' }],
    );
    if (problems.length > 0) throw new InvalidRequestError('Invalid device counts', problems);
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const policies = await policiesOf(this.ctx.em, tenantId);
    if (!policies.some((policy) => policy.isDefault))
      policies.push(defaultPolicy(this.ctx.scope, tenantId, tenant.createdAt));
    const users = await enrollingUsers(this.ctx.em, this.ctx.scope, tenantId, { ids: [input.userId] });
    const user = users.get(input.userId);
    if (!user) throw new NotFoundError('User', input.userId);
    const deviceCounts = input.deviceCounts
      ? new Map(input.deviceCounts.map((row) => [row.platform, row.count]))
      : user.deviceCounts;
    return evaluateEnrollment(
      policies,
      { ...input, manufacturer: input.manufacturer ?? '' },
      { groupIds: user.groupIds, deviceCounts },
    );
  }

  /** Blocked attempts, newest first, filtered by reason, platform and time (attemptedAt within [from, to]). */
  async blocked(
    tenantId: string,
    filter: BlockedAttemptFilter,
    page: PageArgs,
  ): Promise<Page<BlockedEnrollmentAttempt>> {
    if (filter.from && filter.to && filter.from > filter.to)
      throw InvalidRequestError.field('from', 'must not be after to');
    const result = await findLeanPage(
      this.ctx,
      BlockedEnrollmentAttempt,
      {
        tenantId,
        reason: filter.reason ?? undefined,
        platform: filter.platform ?? undefined,
        attemptedAt:
          filter.from || filter.to
            ? { gte: filter.from ?? undefined, lte: filter.to ?? undefined }
            : undefined,
      },
      page,
      { attemptedAt: 'desc', id: 'desc' },
    );
    if (result.items.length === 0)
      await assertBlockedAttemptsAvailable(this.ctx, await new TenantService(this.ctx).get(tenantId));
    return result;
  }
}
