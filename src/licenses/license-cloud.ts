import type { CloudLicenseAssignmentRecord, CloudSkuRecord } from '../cloud/provider.js';
import type { TenantLicense } from './license.entity.js';

/**
 * Our license rows and the cloud's SKUs and assignments, in one place. Writes name a SKU by the cloud's own
 * id, which we keep as `skuId` (LicenseService: assignLicense, removeLicense); the tenant sync reads these.
 */

/** A seat as the cloud's SKU says: `total` its prepaid units, `consumed` the assignments we keep of it. */
export function syncedLicenseFieldsOf(sku: CloudSkuRecord, consumed: number) {
  return {
    skuPartNumber: sku.skuPartNumber,
    name: sku.name,
    total: sku.prepaidUnits,
    consumed,
  } satisfies Partial<TenantLicense>;
}

/**
 * The assignments of the cloud we keep, by `userId:skuId`: of a SKU it lists, to a user we hold that is not
 * deleted (`activeUserIds`: our id by the cloud's).
 */
export function syncedAssignmentsOf(
  skus: CloudSkuRecord[],
  assignments: CloudLicenseAssignmentRecord[],
  activeUserIds: Map<string, string>,
): Map<string, { userId: string; skuId: string }> {
  const skuIds = new Set(skus.map((sku) => sku.skuId));
  const wanted = new Map<string, { userId: string; skuId: string }>();
  for (const assignment of assignments) {
    const userId = activeUserIds.get(assignment.userExternalId);
    if (userId && skuIds.has(assignment.skuId)) {
      wanted.set(`${userId}:${assignment.skuId}`, { userId, skuId: assignment.skuId });
    }
  }
  return wanted;
}
