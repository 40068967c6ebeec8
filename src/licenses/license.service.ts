import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { isCloudError } from '../cloud/cloud-error.js';
import { undoInCloudOnFailure } from '../core/cloud-compensation.js';
import { ConflictError, NotFoundError } from '../core/errors.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { User } from '../users/user.entity.js';
import { LicenseAssignment, TenantLicense } from './license.entity.js';
import type { LicenseRemoval } from './license.types.js';

export interface LicenseAssignmentRequest {
  userId: string;
  skuId: string;
}

export interface LicenseAssignmentFilter {
  userId?: string | null;
  skuId?: string | null;
}

interface AssignmentSubjects {
  tenant: Tenant;
  user: User;
  license: TenantLicense;
}

/**
 * License seats and assignments of a tenant (SPEC 2.3, 2.4).
 *
 * `tenant_licenses.consumed` is the seat counter. It is raised only by a conditional UPDATE
 * (`consumed < total`) in the transaction that inserts the assignment, and the unique
 * (user_id, sku_id) index makes a concurrent duplicate wait and then see the winner's row, so
 * neither concurrent assigns nor concurrent duplicates can oversell or double-count a seat.
 *
 * The upstream cloud is called outside the database transaction, before it: a transaction that held
 * the SKU's row lock across a cloud call would serialise every assign of that SKU behind the network,
 * and (with the simulated cloud, which uses the same connection pool) could exhaust the pool and
 * deadlock under load. A cloud assign whose seat then turns out to be gone is undone in the cloud.
 */
export class LicenseService {
  constructor(private readonly ctx: ServiceContext) {}

  async listLicenses(
    tenantId: string,
    page: PageArgs,
    /** The fields asked of each license (selectedItemFields): only their columns are read; all without it. */
    fields?: ReadonlySet<string>,
  ): Promise<Page<TenantLicense>> {
    const licenses = await findLeanPage(
      this.ctx,
      TenantLicense,
      { tenantId },
      page,
      { name: 'asc', id: 'asc' },
      [],
      undefined,
      // `available` is a getter over the seat counts.
      { fields, computed: { available: ['total', 'consumed'] } },
    );
    // Rows prove the tenant is the caller's; only an empty page needs the tenant check (404).
    if (licenses.items.length === 0) await this.tenant(tenantId);
    return licenses;
  }

  async listAssignments(
    tenantId: string,
    filter: LicenseAssignmentFilter,
    page: PageArgs,
  ): Promise<Page<LicenseAssignment>> {
    const where = { tenantId, userId: filter.userId ?? undefined, skuId: filter.skuId ?? undefined };
    const assignments = await findLeanPage(this.ctx, LicenseAssignment, where, page, {
      assignedAt: 'desc',
      id: 'desc',
    });
    if (assignments.items.length === 0) await this.tenant(tenantId);
    return assignments;
  }

  /**
   * Gives the user a seat of the SKU. Already holding it is a success that changes nothing
   * (the existing assignment is returned, seats unchanged).
   */
  async assign(tenantId: string, request: LicenseAssignmentRequest): Promise<LicenseAssignment> {
    const subjects = await this.subjects(tenantId, request);
    const held = await this.ctx.em.findOne(LicenseAssignment, {
      userId: request.userId,
      skuId: request.skuId,
    });
    if (held) return held;
    assertMayHoldLicenses(subjects.user);
    // Cheap early refusal, so a full SKU costs no cloud call; the transaction re-checks under lock.
    if (subjects.license.consumed >= subjects.license.total) throw noFreeSeat(subjects.license);

    const { tenant, user, license } = subjects;
    const { licenses } = await this.ctx.cloud.forTenant(tenant.externalId);
    await licenses.assignLicense(user.externalId, license.skuId).catch((error: unknown) => {
      throw cloudLicenseRefusal(error, subjects);
    });
    // The seat may be gone after all (the transaction re-checks): the cloud must not keep what we refused.
    return undoInCloudOnFailure(
      () => licenses.removeLicense(user.externalId, license.skuId),
      () => this.ctx.em.transactional((em) => this.takeSeat(em, subjects)),
    );
  }

  /** Takes the user's license away and returns the seat to the pool; idempotent (see LicenseRemoval). */
  async remove(tenantId: string, request: LicenseAssignmentRequest): Promise<LicenseRemoval> {
    const { tenant, user, license } = await this.subjects(tenantId, request);
    const notRemoved: LicenseRemoval = { ...request, removed: false, removedAt: null };
    const held = await this.ctx.em.findOne(LicenseAssignment, { userId: user.id, skuId: license.skuId });
    if (!held) return notRemoved;

    await (
      await this.ctx.cloud.forTenant(tenant.externalId)
    ).licenses.removeLicense(user.externalId, license.skuId);
    const removedAt = this.ctx.clock.now();
    const removed = await this.ctx.em.transactional(async (em) => {
      // A concurrent removal of the same license deletes nothing here and returns no seat.
      const deleted = await em.nativeDelete(LicenseAssignment, { userId: user.id, skuId: license.skuId });
      if (deleted === 0) return false;
      await em.nativeUpdate(
        TenantLicense,
        { id: license.id, consumed: { $gt: 0 } },
        { consumed: raw('consumed - 1') },
      );
      await this.emitLicenseEvent(em, 'license.removed', { tenant, user, license });
      return true;
    });
    return removed ? { ...request, removed: true, removedAt } : notRemoved;
  }

  /** The new assignment, or the one a concurrent request for the same user and SKU committed first. */
  private async takeSeat(
    em: EntityManager,
    { tenant, user, license }: AssignmentSubjects,
  ): Promise<LicenseAssignment> {
    // Share-lock the user: a concurrent soft delete (which updates this row first, then returns the
    // user's seats) either commits before us, and we refuse, or waits for us and then returns this seat too.
    const live = await em.execute('select 1 from users where id = ? and deleted_at is null for share', [
      user.id,
    ]);
    if (live.length === 0) throw new NotFoundError('User', user.id);
    const assignment = new LicenseAssignment(this.ctx.scope, {
      tenantId: tenant.id,
      userId: user.id,
      skuId: license.skuId,
      assignedAt: this.ctx.clock.now(),
    });
    // A concurrent insert of the same (user, sku) makes this one wait for it; if it committed, ours
    // inserts nothing and the request is the idempotent "already held" case.
    const inserted = await em
      .createQueryBuilder(LicenseAssignment)
      .insert({
        id: assignment.id,
        organizationId: assignment.organizationId,
        environment: assignment.environment,
        tenantId: assignment.tenantId,
        userId: assignment.userId,
        skuId: assignment.skuId,
        assignedAt: assignment.assignedAt,
      })
      .onConflict(['userId', 'skuId'])
      .ignore()
      .execute('run');
    if (inserted.affectedRows === 0) {
      const existing = await em.findOneOrFail(LicenseAssignment, { userId: user.id, skuId: license.skuId });
      return existing;
    }
    const seatTaken = await em.nativeUpdate(
      TenantLicense,
      { id: license.id, consumed: { $lt: raw('total') } },
      { consumed: raw('consumed + 1') },
    );
    if (seatTaken === 0) {
      const current = await em.findOneOrFail(TenantLicense, { id: license.id }, { refresh: true });
      throw noFreeSeat(current); // rolls back the insert
    }
    await this.emitLicenseEvent(em, 'license.assigned', { tenant, user, license });
    return assignment;
  }

  private emitLicenseEvent(
    em: EntityManager,
    kind: 'license.assigned' | 'license.removed',
    { tenant, user, license }: AssignmentSubjects,
  ): Promise<unknown> {
    return emitEvent(
      { ...this.ctx, em },
      {
        kind,
        severity: 'informational',
        tenant: tenant.eventRef,
        details: { userId: user.id, skuId: license.skuId, skuPartNumber: license.skuPartNumber },
        actionPath: `/tenants/${tenant.id}/licenses/assignments`,
      },
    );
  }

  /** The tenant, the (not deleted) user of that tenant and the tenant's SKU, or 404 for the first missing. */
  private async subjects(tenantId: string, request: LicenseAssignmentRequest): Promise<AssignmentSubjects> {
    const tenant = await this.tenant(tenantId);
    const [user, license] = await Promise.all([
      this.ctx.em.findOne(User, { id: request.userId, tenantId, deletedAt: null }),
      this.ctx.em.findOne(TenantLicense, { tenantId, skuId: request.skuId }),
    ]);
    if (!user) throw new NotFoundError('User', request.userId);
    if (!license) throw new NotFoundError('License', request.skuId);
    return { tenant, user, license };
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}

/** SPEC 2.3: service accounts hold no licenses; a usage location must be set before assigning one. */
function assertMayHoldLicenses(user: User): void {
  if (user.isServiceAccount) {
    throw new ConflictError(`User ${user.id} is a service account; service accounts hold no licenses`, {
      userId: user.id,
      field: 'isServiceAccount',
      reason: 'service accounts hold no licenses',
    });
  }
  if (!user.usageLocation) throw usageLocationRequired(user);
}

function usageLocationRequired(user: User): ConflictError {
  return new ConflictError(
    `User ${user.id} has no usageLocation; set the usage location before assigning a license`,
    { userId: user.id, field: 'usageLocation', reason: 'must be set before a license can be assigned' },
  );
}

/**
 * The cloud's refusal of an assignment, answered as our own check of the same rule answers it (the sandbox
 * never gets there: its data is ours): no usage location or no free seat upstream → the same 409; a SKU or
 * user the cloud no longer has → 404 (our rows are older than the cloud; the next sync catches up). Any other
 * refusal keeps the one mapping of a request (409 CLOUD_REFUSED with the cloud's reason).
 */
function cloudLicenseRefusal(error: unknown, { user, license }: AssignmentSubjects): unknown {
  if (isCloudError(error, 'NotFound') && !error.cloudCode?.startsWith('AADSTS'))
    return new NotFoundError('User', user.id);
  if (!isCloudError(error, 'Refused')) return error;
  switch (error.refusal) {
    case 'USAGE_LOCATION_REQUIRED':
      return usageLocationRequired(user);
    case 'NO_FREE_SEAT':
      return noFreeSeat(license);
    case 'UNKNOWN_SKU':
      return new NotFoundError('License', license.skuId);
    default:
      return error;
  }
}

function noFreeSeat(license: TenantLicense): ConflictError {
  return new ConflictError(`No free seat of ${license.skuPartNumber}: all ${license.total} are assigned`, {
    skuId: license.skuId,
    total: license.total,
    consumed: license.consumed,
  });
}
