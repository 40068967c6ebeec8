import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PreconditionFailedError,
} from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { Group } from '../users/group.entity.js';
import { BlockedEnrollmentAttempt } from './blocked-enrollment.entity.js';
import {
  assertBlockedAttemptsAvailable,
  cloudConfigurationsOf,
  writePolicyToCloud,
} from './enrollment-cloud.js';
import type { BlockReason, EnrollmentPlatform } from './enrollment.enums.js';
import { evaluateEnrollment, type EnrollmentDecision } from './enrollment-evaluation.js';
import {
  defaultPolicy,
  defaultPolicyId,
  enrollingUsers,
  ensureDefaultPolicy,
  policiesOf,
} from './enrollment-facts.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import type {
  CreateEnrollmentRestrictionInput,
  EvaluateEnrollmentInput,
  UpdateEnrollmentRestrictionInput,
} from './enrollment-policy.types.js';
import { assertValidPolicy, withEveryPlatform, type PolicyDraft } from './enrollment-policy.validation.js';
import { MAX_ENROLLMENT_RESTRICTIONS, RestrictionType } from './enrollment.enums.js';

export interface BlockedAttemptFilter {
  reason?: BlockReason | null;
  platform?: EnrollmentPlatform | null;
  from?: Date | null;
  to?: Date | null;
}

/** `"3"`, `W/"3"` or `3` → 3; anything else is a bad header (400 naming If-Match). */
function expectedVersionOf(ifMatch: string): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch);
  if (!match) throw InvalidRequestError.field('If-Match', 'must be the ETag of the policy, e.g. "3"');
  return Number(match[1]);
}

/** A draft as the client gave it, trimmed and with absent values made explicit (platform rows in its order). */
function normalized(draft: PolicyDraft): PolicyDraft {
  return {
    ...draft,
    name: draft.name.trim(),
    platformRestrictions: draft.platformRestrictions.map((row) => ({
      platform: row.platform,
      allowed: row.allowed,
      corporateAllowed: row.corporateAllowed ?? true,
      personalAllowed: row.personalAllowed ?? true,
      minOsVersion: row.minOsVersion ?? null,
      maxOsVersion: row.maxOsVersion ?? null,
      blockedManufacturers: (row.blockedManufacturers ?? []).map((maker) => maker.trim()),
    })),
    platformLimits: draft.platformLimits.map(({ platform, limit }) => ({ platform, limit })),
    groupOverrides: draft.groupOverrides.map(({ groupId, deviceLimit }) => ({ groupId, deviceLimit })),
  };
}

/** What is stored once valid: a device type restriction lists every platform (those not given: allowed). */
function stored(draft: PolicyDraft): PolicyDraft {
  return draft.restrictionType === RestrictionType.DEVICE_TYPE
    ? { ...draft, platformRestrictions: withEveryPlatform(draft.platformRestrictions) }
    : draft;
}

/**
 * Enrollment restriction policies of a tenant (SPEC 2.6, 4.2, 4.4, 8.3; docs/devices.md): list, create,
 * update with If-Match, reorder, dry evaluation, blocked attempts. Every change to a tenant's order (create,
 * reorder) first locks the tenant's default policy row, so two of them never interleave and priorities stay
 * 1..n with the default n+1.
 */
export class EnrollmentPolicyService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * One page of the tenant's policies in priority order, the default last (SPEC 8.2 meta). Every write
   * (create, edit, reorder, sync) stores the default before anything else, so a tenant has either no stored
   * policy or its default among them: a tenant with none shows the default as it will be stored (reading
   * writes nothing), and its tenant is looked up only then (one statement otherwise).
   */
  async list(tenantId: string, args: PageArgs): Promise<Page<EnrollmentRestriction>> {
    const stored = await findLeanPage(this.ctx, EnrollmentRestriction, { tenantId }, args, {
      isDefault: 'asc',
      priority: 'asc',
    });
    if (stored.pageInfo.total > 0) return stored;
    const tenant = await this.tenant(tenantId);
    const onlyTheDefault =
      pageOffset(args) === 0 ? [defaultPolicy(this.ctx.scope, tenantId, tenant.createdAt)] : [];
    return { items: onlyTheDefault, pageInfo: { ...stored.pageInfo, total: 1 } };
  }

  /** Every policy of the tenant in priority order, the default last (stored or as it will be): what decides. */
  private async allPolicies(tenantId: string): Promise<EnrollmentRestriction[]> {
    const tenant = await this.tenant(tenantId);
    const policies = await policiesOf(this.ctx.em, tenantId);
    if (!policies.some((policy) => policy.isDefault))
      policies.push(defaultPolicy(this.ctx.scope, tenantId, tenant.createdAt));
    return policies;
  }

  async create(tenantId: string, input: CreateEnrollmentRestrictionInput): Promise<EnrollmentRestriction> {
    const tenant = await this.tenant(tenantId);
    const draft = normalized({
      name: input.name,
      description: input.description ?? null,
      restrictionType: input.restrictionType,
      isDefault: false,
      assignedToAllUsers: input.assignedToAllUsers ?? false,
      groupIds: input.groupIds ?? [],
      platformRestrictions: input.platformRestrictions ?? [],
      deviceLimit: input.deviceLimit ?? null,
      platformLimits: input.platformLimits ?? [],
      groupOverrides: input.groupOverrides ?? [],
    });
    assertValidPolicy(draft, await this.unknownGroups(tenantId, draft));
    const settings = stored(draft);
    const cloud = await cloudConfigurationsOf(this.ctx, tenant);
    return this.ctx.em.transactional(async (em) => {
      const fallback = await this.lockDefault(em, tenantId);
      const others = await em.count(EnrollmentRestriction, { tenantId, isDefault: false });
      // Counted under the default policy's lock, so two creates at once cannot both take the last place.
      if (others + 1 >= MAX_ENROLLMENT_RESTRICTIONS) {
        throw new ConflictError(
          `The tenant already has ${others + 1} enrollment restrictions, the most it may have ` +
            `(${MAX_ENROLLMENT_RESTRICTIONS}, the default included); change an existing one instead`,
          { reason: 'RESTRICTION_LIMIT', limit: MAX_ENROLLMENT_RESTRICTIONS },
        );
      }
      const now = this.ctx.clock.now();
      const policy = new EnrollmentRestriction(this.ctx.scope, {
        tenantId,
        ...settings,
        priority: others + 1,
        createdAt: now,
        updatedAt: now,
      });
      fallback.priority = others + 2;
      // Written to the cloud before our commit: a refusal or throttling there stores nothing here.
      if (cloud) await writePolicyToCloud(em, cloud, policy);
      await em.persist(policy).flush();
      return policy;
    });
  }

  /**
   * Changes the fields given. With `ifMatch` (REST: the If-Match header), the change is made only if the
   * policy is still at that version, else 412: two admins editing one policy cannot overwrite each other.
   */
  async update(
    tenantId: string,
    id: string,
    input: UpdateEnrollmentRestrictionInput,
    ifMatch: string | null,
  ): Promise<EnrollmentRestriction> {
    const tenant = await this.tenant(tenantId);
    const expected = ifMatch === null ? null : expectedVersionOf(ifMatch);
    const cloud = await cloudConfigurationsOf(this.ctx, tenant);
    return this.ctx.em.transactional(async (em) => {
      // The default may not be stored yet (reads show it without writing); an edit stores it first.
      if (id === defaultPolicyId(tenantId))
        await ensureDefaultPolicy(em, this.ctx.scope, tenantId, this.ctx.clock.now());
      const policy = await em.findOne(
        EnrollmentRestriction,
        { id, tenantId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!policy) throw new NotFoundError('Enrollment restriction', id);
      if (expected !== null && expected !== policy.version) {
        throw new PreconditionFailedError(
          `Enrollment restriction ${id} is at version ${policy.version}, not ${expected}: read it again`,
          { currentVersion: policy.version, expectedVersion: expected },
        );
      }
      const defined = <T>(value: T | undefined | null, current: T): T =>
        value === undefined || value === null ? current : value;
      const draft = normalized({
        name: defined(input.name, policy.name),
        description: input.description === undefined ? policy.description : input.description,
        restrictionType: policy.restrictionType,
        isDefault: policy.isDefault,
        assignedToAllUsers: defined(input.assignedToAllUsers, policy.assignedToAllUsers),
        groupIds: defined(input.groupIds, policy.groupIds),
        platformRestrictions: defined(input.platformRestrictions, policy.platformRestrictions),
        deviceLimit: input.deviceLimit === undefined ? policy.deviceLimit : input.deviceLimit,
        platformLimits: defined(input.platformLimits, policy.platformLimits),
        groupOverrides: defined(input.groupOverrides, policy.groupOverrides),
      });
      assertValidPolicy(draft, await this.unknownGroups(tenantId, draft, em));
      em.assign(policy, { ...stored(draft), version: policy.version + 1, updatedAt: this.ctx.clock.now() });
      if (cloud) await writePolicyToCloud(em, cloud, policy);
      await em.flush();
      return policy;
    });
  }

  /**
   * Sets the order of the tenant's non-default policies: `policyIds` must name each of them exactly once.
   * A duplicate, the default or an id that is no policy of the tenant: 400. A list that misses a policy (it
   * was created after the caller read the list, or the list is partial): 409 with what is missing, and
   * nothing changes. All priorities are written in one statement.
   */
  async reorder(tenantId: string, policyIds: string[]): Promise<EnrollmentRestriction[]> {
    const cloud = await cloudConfigurationsOf(this.ctx, await this.tenant(tenantId));
    await this.ctx.em.transactional(async (em) => {
      const fallback = await this.lockDefault(em, tenantId);
      const current = await em.find(EnrollmentRestriction, { tenantId, isDefault: false }, { refresh: true });
      const known = new Set(current.map((policy) => policy.id));
      const seen = new Set<string>();
      const problems = policyIds.flatMap((id, i) => {
        const field = `policyIds[${i}]`;
        if (seen.has(id)) return [{ field, problem: `names ${id} more than once` }];
        seen.add(id);
        if (id === fallback.id) return [{ field, problem: 'is the default policy, which always stays last' }];
        if (!known.has(id)) return [{ field, problem: 'is not an enrollment restriction of the tenant' }];
        return [];
      });
      if (problems.length > 0) throw new InvalidRequestError('Invalid priority order', problems);
      const missing = current.filter((policy) => !seen.has(policy.id)).map((policy) => policy.id);
      if (missing.length > 0) {
        throw new ConflictError(
          `The order must name every policy of the tenant but the default; missing: ${missing.join(', ')}`,
          {
            missing,
            current: [...current].sort((a, b) => a.priority - b.priority).map((policy) => policy.id),
          },
        );
      }
      await em.execute(
        `update enrollment_restrictions r set priority = o.position, updated_at = ?
           from jsonb_array_elements_text(?::jsonb) with ordinality as o(id, position)
          where r.id = o.id::uuid and r.organization_id = ? and r.environment = ? and r.tenant_id = ?`,
        [
          this.ctx.clock.now(),
          JSON.stringify(policyIds),
          this.ctx.scope.organizationId,
          this.ctx.scope.environment,
          tenantId,
        ],
      );
      fallback.priority = policyIds.length + 1;
      await em.flush();
      // The cloud's order follows ours (Intune: 1 first, its default 0 stays last), moved ones only.
      const byId = new Map(current.map((policy) => [policy.id, policy]));
      for (const [index, id] of policyIds.entries()) {
        const policy = byId.get(id);
        if (cloud && policy?.cloudId && policy.priority !== index + 1)
          await cloud.setPriority(policy.cloudId, index + 1);
      }
    });
    return policiesOf(this.ctx.em.fork(), tenantId);
  }

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
    const policies = await this.allPolicies(tenantId);
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
      await assertBlockedAttemptsAvailable(this.ctx, await this.tenant(tenantId));
    return result;
  }

  private async lockDefault(em: EntityManager, tenantId: string): Promise<EnrollmentRestriction> {
    await ensureDefaultPolicy(em, this.ctx.scope, tenantId, this.ctx.clock.now());
    return em.findOneOrFail(
      EnrollmentRestriction,
      { tenantId, isDefault: true },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
  }

  /** The group ids of a draft that are no group of the tenant. */
  private async unknownGroups(tenantId: string, draft: PolicyDraft, em = this.ctx.em): Promise<Set<string>> {
    const ids = [...new Set([...draft.groupIds, ...draft.groupOverrides.map((row) => row.groupId)])];
    if (ids.length === 0) return new Set();
    const found = await em.find(Group, { tenantId, id: { $in: ids } }, { fields: ['id'] });
    const known = new Set(found.map((group) => group.id));
    return new Set(ids.filter((id) => !known.has(id)));
  }

  private tenant(tenantId: string) {
    return new TenantService(this.ctx).get(tenantId);
  }
}
