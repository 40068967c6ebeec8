import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { Group } from '../users/group.entity.js';
import {
  assertCloudIdFree,
  createInCloud,
  undoCreateInCloud,
  updateInCloud,
  type CloudCreated,
} from './enrollment-cloud-write.js';
import { cloudConfigurationsOf, driftAfterEdit } from './enrollment-cloud.js';
import { expectedVersionOf, normalized, stored, updatedDraft } from './enrollment-drafts.js';
import {
  defaultPolicy,
  defaultPolicyId,
  ensureDefaultPolicy,
  lockDefaultPolicy,
} from './enrollment-facts.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import type {
  CreateEnrollmentRestrictionInput,
  UpdateEnrollmentRestrictionInput,
} from './enrollment-policy.types.js';
import { assertValidPolicy, type PolicyDraft } from './enrollment-policy.validation.js';
import { MAX_ENROLLMENT_RESTRICTIONS } from './enrollment.enums.js';

/** Saves an update retried after a concurrent change (without If-Match) at most this many times in all. */
const UPDATE_TRIES = 3;

/**
 * Enrollment restriction policies of a tenant (SPEC 2.6, 4.2, 4.4, 8.3; docs/devices.md): list, create, update
 * with If-Match (the order is enrollment-order.service.ts, attempts enrollment-attempts.service.ts). On a cloud
 * that enforces restrictions itself (Intune), the cloud is written first, outside every transaction and lock,
 * and the policy saved after it answered, in a short transaction that checks again what the cloud call could
 * not hold (the tenant's last place, the version): docs/microsoft365.md "Enrollment restrictions".
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

  /**
   * Creates a policy last of the tenant's order. The cloud's configuration is made first (keyed by kind and
   * name: a retry after a crash finds the one an earlier try made); the save then checks the tenant's limit
   * again under the default policy's lock. A failure after Intune took the create (a later call, or the
   * save refusing or failing) removes the configuration this call made.
   */
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
    // Refused before the cloud is written when already full (checked again under the lock).
    await this.assertRoom(this.ctx.em, tenantId);
    let created: CloudCreated | null = null;
    if (cloud) {
      // Last of ours of its kind in Intune (those written there: a policy stored before Intune was connected
      // is not, until its next edit).
      const sameKind = await this.ctx.em.count(EnrollmentRestriction, {
        tenantId,
        isDefault: false,
        restrictionType: settings.restrictionType,
        cloudId: { $ne: null },
      });
      created = await createInCloud(this.ctx.em, cloud, tenantId, settings, sameKind + 1);
    }
    try {
      return await this.ctx.em.transactional(async (em) => {
        const fallback = await lockDefaultPolicy(em, this.ctx.scope, tenantId, this.ctx.clock.now());
        const others = await this.assertRoom(em, tenantId);
        if (created) await assertCloudIdFree(em, tenantId, created.cloudId, settings.name);
        const now = this.ctx.clock.now();
        const policy = new EnrollmentRestriction(this.ctx.scope, {
          tenantId,
          ...settings,
          priority: others + 1,
          createdAt: now,
          updatedAt: now,
        });
        policy.cloudId = created?.cloudId ?? null;
        fallback.priority = others + 2;
        await em.persist(policy).flush();
        return policy;
      });
    } catch (error) {
      // The save refused or failed after the cloud took it: nothing of it stays in Intune either (unless the
      // holder cannot be read: then the retry finds the configuration). Only a process dying here leaves it.
      if (cloud && created) await undoCreateInCloud(this.ctx.em.fork(), cloud, tenantId, created);
      throw error;
    }
  }

  /**
   * Changes the fields given. With `ifMatch` (REST: the If-Match header), the change is made only if the
   * policy is still at that version, else 412: two admins editing one policy cannot overwrite each other.
   * The cloud is written first; the save checks that the policy is still at the version read. If another
   * change was saved in between: with `ifMatch`, the stored policy is written to the cloud again and 412;
   * without, the update is made again on the new version (at most UPDATE_TRIES times, then 409).
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
    // The default may not be stored yet (reads show it without writing); an edit stores it first.
    if (id === defaultPolicyId(tenantId))
      await ensureDefaultPolicy(this.ctx.em, this.ctx.scope, tenantId, this.ctx.clock.now());
    for (let attempt = 1; ; attempt++) {
      const read = await this.ctx.em.findOne(EnrollmentRestriction, { id, tenantId }, { refresh: true });
      if (!read) throw new NotFoundError('Enrollment restriction', id);
      if (expected !== null && expected !== read.version) throw stale(id, read.version, expected);
      // The save's transaction shares this entity (a refresh there updates it): what was read, kept apart.
      const readVersion = read.version;
      const draft = updatedDraft(read, input);
      assertValidPolicy(draft, await this.unknownGroups(tenantId, draft));
      const settings = stored(draft);
      const cloudId = cloud ? await updateInCloud(this.ctx.em, cloud, read, settings) : read.cloudId;
      const saved = await this.ctx.em.transactional(async (em) => {
        const policy = await em.findOne(
          EnrollmentRestriction,
          { id, tenantId },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        if (!policy) throw new NotFoundError('Enrollment restriction', id);
        if (policy.version !== readVersion) return null;
        em.assign(policy, {
          ...settings,
          version: policy.version + 1,
          updatedAt: this.ctx.clock.now(),
          cloudId,
          // Written to Intune just now: what drifted is gone, but for a moved place (an edit does not move it).
          cloudDrift: cloud ? driftAfterEdit(policy.cloudDrift) : policy.cloudDrift,
        });
        await em.flush();
        return policy;
      });
      if (saved) return saved;
      const now = await this.ctx.em.findOneOrFail(EnrollmentRestriction, { id, tenantId }, { refresh: true });
      if (expected !== null || attempt >= UPDATE_TRIES) {
        // The cloud may hold what we wrote, the database holds the other change: the cloud gets it back.
        if (cloud) await updateInCloud(this.ctx.em, cloud, now, now);
        if (expected !== null) throw stale(id, now.version, expected);
        throw new ConflictError(
          `Enrollment restriction ${id} kept changing while this update was made: try again`,
          { currentVersion: now.version },
        );
      }
    }
  }

  /** The number of the tenant's non-default policies, or 409 when one more would pass the limit. */
  private async assertRoom(em: EntityManager, tenantId: string): Promise<number> {
    const others = await em.count(EnrollmentRestriction, { tenantId, isDefault: false });
    if (others + 1 >= MAX_ENROLLMENT_RESTRICTIONS) {
      throw new ConflictError(
        `The tenant already has ${others + 1} enrollment restrictions, the most it may have ` +
          `(${MAX_ENROLLMENT_RESTRICTIONS}, the default included); change an existing one instead`,
        { reason: 'RESTRICTION_LIMIT', limit: MAX_ENROLLMENT_RESTRICTIONS },
      );
    }
    return others;
  }

  /** The group ids of a draft that are no group of the tenant. */
  private async unknownGroups(tenantId: string, draft: PolicyDraft): Promise<Set<string>> {
    const ids = [...new Set([...draft.groupIds, ...draft.groupOverrides.map((row) => row.groupId)])];
    if (ids.length === 0) return new Set();
    const found = await this.ctx.em.find(Group, { tenantId, id: { $in: ids } }, { fields: ['id'] });
    const known = new Set(found.map((group) => group.id));
    return new Set(ids.filter((id) => !known.has(id)));
  }

  private tenant(tenantId: string) {
    return new TenantService(this.ctx).get(tenantId);
  }
}

function stale(id: string, currentVersion: number, expectedVersion: number): PreconditionFailedError {
  return new PreconditionFailedError(
    `Enrollment restriction ${id} is at version ${currentVersion}, not ${expectedVersion}: read it again`,
    { currentVersion, expectedVersion },
  );
}
