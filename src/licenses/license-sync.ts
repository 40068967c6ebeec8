import type { CloudLicenseAssignmentRecord, CloudSkuRecord } from '../cloud/provider.js';
import { applyChanges } from '../sync/rows.js';
import type { SyncStep, SyncWriteContext } from '../sync/sync-step.js';
import { activeUserIdsOf } from '../users/user-sync.js';
import { syncedAssignmentsOf, syncedLicenseFieldsOf } from './license-cloud.js';
import { LicenseAssignment, TenantLicense } from './license.entity.js';
import { allPages } from '../cloud/pages.js';

/**
 * Licenses and assignments: SKUs by product id with `total` = prepaid seats; assignments of users we
 * know (and that are not deleted) added or removed; `consumed` recomputed from the assignments.
 */
export async function reconcileLicenses(
  write: SyncWriteContext,
  upstreamSkus: CloudSkuRecord[],
  upstreamAssignments: CloudLicenseAssignmentRecord[],
  activeUserIds: Map<string, string>,
) {
  const { em, scope } = write.ctx;
  const { now } = write;
  const tenantId = write.tenant.id;
  const [licenses, assignments] = await Promise.all([
    em.find(TenantLicense, { tenantId }),
    em.find(LicenseAssignment, { tenantId }),
  ]);
  const counts = {
    licensesCreated: 0,
    licensesUpdated: 0,
    licensesRemoved: 0,
    assignmentsCreated: 0,
    assignmentsRemoved: 0,
  };
  const skuIds = new Set(upstreamSkus.map((sku) => sku.skuId));
  const wanted = syncedAssignmentsOf(upstreamSkus, upstreamAssignments, activeUserIds);
  const held = new Set(assignments.map((a) => `${a.userId}:${a.skuId}`));
  const stale = assignments.filter((a) => !wanted.has(`${a.userId}:${a.skuId}`));
  if (stale.length > 0) {
    await em.nativeDelete(LicenseAssignment, { id: { $in: stale.map((a) => a.id) } });
    counts.assignmentsRemoved = stale.length;
  }
  for (const [key, assignment] of wanted) {
    if (held.has(key)) continue;
    em.persist(new LicenseAssignment(scope, { tenantId, ...assignment, assignedAt: now }));
    counts.assignmentsCreated++;
  }

  const consumedBySku = new Map<string, number>();
  for (const { skuId } of wanted.values()) consumedBySku.set(skuId, (consumedBySku.get(skuId) ?? 0) + 1);
  const licenseBySku = new Map(licenses.map((license) => [license.skuId, license]));
  for (const sku of upstreamSkus) {
    const fields = syncedLicenseFieldsOf(sku, consumedBySku.get(sku.skuId) ?? 0);
    const existingLicense = licenseBySku.get(sku.skuId);
    if (!existingLicense) {
      const license = new TenantLicense(scope, { tenantId, skuId: sku.skuId, ...fields });
      license.consumed = fields.consumed;
      em.persist(license);
      counts.licensesCreated++;
    } else if (applyChanges(existingLicense, fields)) {
      counts.licensesUpdated++;
    }
  }
  const gone = licenses.filter((license) => !skuIds.has(license.skuId));
  if (gone.length > 0) {
    await em.nativeDelete(TenantLicense, { id: { $in: gone.map((license) => license.id) } });
    counts.licensesRemoved = gone.length;
  }
  await em.flush();
  return counts;
}

/** Licenses and their assignments, after the users they are assigned to. */
export const licensesSyncStep: SyncStep = {
  name: 'licenses',
  after: ['users'],
  weight: 15,
  async read({ cloud }) {
    const [skus, assignments] = await Promise.all([
      allPages(cloud.licenses.listSkus()),
      allPages(cloud.licenses.listLicenseAssignments()),
    ]);
    return async (write) =>
      reconcileLicenses(write, skus, assignments, await activeUserIdsOf(write.ctx.em, write.tenant.id));
  },
};
