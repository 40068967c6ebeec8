import type { CloudBackupItemRecord } from '../cloud/backup.provider.js';
import { InvalidRequestError, NotFoundError, type FieldProblem } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import type { BackupSnapshot } from './backup-snapshot.entity.js';
import { BackupService } from './backup.service.js';
import { ConflictPolicy, RestoreTargetType, RestoreType } from './backup.enums.js';
import { MAX_RESTORE_ITEM_IDS } from './backup.settings.js';
import type { StartRestoreInput } from './backup.types.js';
import { LOCATION_PATTERNS, locationProblem, normalizedLocation } from './restore-location.js';
import { checkDifferentLocation, checkOwnerNotDeleted } from './restore-target.js';

/** A restore request checked against the rules, with what it will restore. */
export interface CheckedRestore {
  tenant: Tenant;
  targetTenant: Tenant;
  snapshot: BackupSnapshot;
  /** The leaf items (messages, files, posts) to restore, containers expanded, in tree order. */
  items: CloudBackupItemRecord[];
}

/** Problems visible from the request alone, before anything is read. */
function shapeProblems(input: StartRestoreInput, tenantId: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const ids = input.itemIds ?? [];
  const { target } = input;
  if (ids.length > MAX_RESTORE_ITEM_IDS)
    problems.push({ field: 'itemIds', problem: `at most ${MAX_RESTORE_ITEM_IDS} ids` });
  if (new Set(ids).size !== ids.length) problems.push({ field: 'itemIds', problem: 'an id is given twice' });
  if (
    (input.restoreType === RestoreType.GRANULAR_ITEM || input.restoreType === RestoreType.CONTAINER) &&
    !ids.length
  )
    problems.push({ field: 'itemIds', problem: `${input.restoreType} restore needs at least one id` });
  if (input.restoreType === RestoreType.POINT_IN_TIME && ids.length)
    problems.push({
      field: 'itemIds',
      problem: 'Point-in-time restores the whole resource: give no itemIds',
    });
  if (input.restoreType === RestoreType.CROSS_TENANT) {
    if (!target.tenantId)
      problems.push({ field: 'target.tenantId', problem: 'Cross-tenant restore needs the receiving tenant' });
    else if (target.tenantId === tenantId)
      problems.push({ field: 'target.tenantId', problem: 'must be another tenant than the snapshot’s' });
    if (target.type !== RestoreTargetType.DIFFERENT_LOCATION)
      problems.push({ field: 'target.type', problem: 'Cross-tenant restore goes to a Different location' });
  } else if (target.tenantId && target.tenantId !== tenantId) {
    problems.push({
      field: 'target.tenantId',
      problem: 'only a Cross-tenant restore goes to another tenant',
    });
  }
  if (target.type === RestoreTargetType.DIFFERENT_LOCATION) {
    const { shape } = LOCATION_PATTERNS[input.workload];
    // Normalized before any check, so the owner checked (restore-target.ts) is the one written to.
    if (target.location) target.location = normalizedLocation(target.location);
    const problem = target.location ? locationProblem(input.workload, target.location) : null;
    if (!target.location)
      problems.push({ field: 'target.location', problem: `Different location needs a location (${shape})` });
    else if (problem) problems.push({ field: 'target.location', problem });
  } else if (target.location) {
    problems.push({ field: 'target.location', problem: `${target.type} takes no location` });
  }
  return problems;
}

/**
 * Every check of a restore request, before anything is written: the request's shape, the snapshot (this
 * tenant's, the right workload, inside the retention window, still in the backup service), the receiving
 * tenant (of this organization) and the different location in it (restore-target.ts), the owner of an
 * original location (not soft-deleted), and the ids (in this snapshot, items or containers as the type says).
 */
export async function checkRestoreRequest(
  ctx: ServiceContext,
  tenantId: string,
  input: StartRestoreInput,
): Promise<CheckedRestore> {
  const tenants = new TenantService(ctx);
  const tenant = await tenants.get(tenantId);
  const problems = shapeProblems(input, tenantId);
  if (problems.length) throw new InvalidRequestError('The restore request is not valid', problems);

  const snapshot = await new BackupService(ctx).getSnapshot(tenantId, input.snapshotId);
  if (snapshot.workload !== input.workload)
    throw InvalidRequestError.field('workload', `snapshot ${snapshot.id} is a ${snapshot.workload} snapshot`);
  if (snapshot.expiresAt <= ctx.clock.now())
    throw InvalidRequestError.field(
      'snapshotId',
      `snapshot taken ${snapshot.takenAt.toISOString()} is outside the retention window`,
    );

  let targetTenant = tenant;
  if (input.restoreType === RestoreType.CROSS_TENANT) {
    try {
      targetTenant = await tenants.get(input.target.tenantId!);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw InvalidRequestError.field('target.tenantId', 'not a tenant of your organization');
    }
  }

  // What the tenant's backup service cannot do (Microsoft 365 Backup: item-level restores, other locations)
  // is refused here, 501 naming the capability, before any other question is put to it.
  await (
    await ctx.cloud.forTenant(tenant.externalId)
  ).backup.checkRestore({
    snapshotExternalId: snapshot.externalId,
    workload: input.workload,
    targetKind: input.target.type,
    crossTenant: targetTenant.id !== tenant.id,
    conflictPolicy: input.conflictPolicy ?? ConflictPolicy.SKIP,
    itemIds: input.itemIds?.length ? input.itemIds : null,
  });
  await checkDifferentLocation(ctx, input, targetTenant);
  // Inside our retention window but no longer at the backup service: say so, not "outside retention".
  if (!(await (await ctx.cloud.forTenant(tenant.externalId)).backup.getBackupSnapshot(snapshot.externalId)))
    throw InvalidRequestError.field(
      'snapshotId',
      `snapshot taken ${snapshot.takenAt.toISOString()} of ${snapshot.resourceName} is no longer held by ` +
        'the backup service (its resource was removed, e.g. the user was purged)',
    );
  await checkOwnerNotDeleted(ctx, input, snapshot);
  const ids = input.itemIds?.length ? input.itemIds : null;
  const found = await (
    await ctx.cloud.forTenant(tenant.externalId)
  ).backup.findBackupItems(snapshot.externalId, ids);
  if (found.missing.length)
    throw InvalidRequestError.field(
      'itemIds',
      `not in this snapshot: ${found.missing.slice(0, 10).join(', ')}${found.missing.length > 10 ? ', …' : ''}`,
    );
  return {
    tenant,
    targetTenant,
    snapshot,
    items: await leavesToRestore(ctx, input, tenant, snapshot, found.items),
  };
}

async function leavesToRestore(
  ctx: ServiceContext,
  input: StartRestoreInput,
  tenant: Tenant,
  snapshot: BackupSnapshot,
  named: CloudBackupItemRecord[],
): Promise<CloudBackupItemRecord[]> {
  const ids = input.itemIds ?? [];
  if (ids.length === 0) return named.filter((item) => item.kind === 'Item');
  const containers = named.filter((item) => item.kind === 'Container');
  if (input.restoreType === RestoreType.GRANULAR_ITEM && containers.length)
    throw InvalidRequestError.field(
      'itemIds',
      `${containers[0].itemId} is a container: use restoreType Container to restore it whole`,
    );
  if (input.restoreType === RestoreType.CONTAINER && containers.length !== named.length)
    throw InvalidRequestError.field(
      'itemIds',
      `${named.find((item) => item.kind !== 'Container')!.itemId} is not a container (folder, library or channel)`,
    );
  if (containers.length === 0) return named;
  // A container restore (or a cross-tenant one naming containers) takes every item inside.
  const all = await (
    await ctx.cloud.forTenant(tenant.externalId)
  ).backup.findBackupItems(snapshot.externalId, null);
  const inside = new Set(containers.map((container) => container.itemId));
  const explicit = new Set(named.filter((item) => item.kind === 'Item').map((item) => item.itemId));
  return all.items.filter(
    (item) => item.kind === 'Item' && (explicit.has(item.itemId) || inside.has(item.parentId ?? '')),
  );
}
