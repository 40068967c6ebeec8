import { randomUUID } from 'node:crypto';
import { cloudUserRecord, type CloudSkuRecord } from '../../src/cloud/provider.js';
import { SimulatedCloudObject } from '../../src/cloud/simulated/index.js';
import type { Scope } from '../../src/core/scope.js';
import { TenantLicense } from '../../src/licenses/license.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { User } from '../../src/users/user.entity.js';
import type { TestApp } from '../helpers/test-app.js';

function scopeOf(tenant: Tenant): Scope {
  return { organizationId: tenant.organizationId, environment: tenant.environment };
}

/** A license SKU of the tenant (with `consumed` seats already counted) and its twin in the simulated cloud. */
export async function createSku(
  app: TestApp,
  tenant: Tenant,
  fields: { total: number; consumed?: number; name?: string; skuPartNumber?: string; skuId?: string },
): Promise<TenantLicense> {
  const em = app.orm.em.fork();
  const skuId = fields.skuId ?? randomUUID();
  const skuPartNumber = fields.skuPartNumber ?? `SKU_${skuId.slice(0, 8).toUpperCase()}`;
  const name = fields.name ?? `License ${skuPartNumber}`;
  const license = new TenantLicense(scopeOf(tenant), {
    tenantId: tenant.id,
    skuId,
    skuPartNumber,
    name,
    total: fields.total,
  });
  license.consumed = fields.consumed ?? 0;
  const record: CloudSkuRecord = { skuId, skuPartNumber, name, prepaidUnits: fields.total };
  const cloudSku = em.create(SimulatedCloudObject, {
    tenantExternalId: tenant.externalId,
    kind: 'sku',
    externalId: skuId,
    data: { ...record },
  });
  await em.persist([license, cloudSku]).flush();
  return license;
}

export interface LicenseUserFields {
  displayName?: string;
  /** null for a user with no usage location; defaults to "US". */
  usageLocation?: string | null;
  isServiceAccount?: boolean;
  deletedAt?: Date | null;
}

/** A user of the tenant and its twin in the simulated cloud: just enough for license tests. */
export async function createLicenseUser(
  app: TestApp,
  tenant: Tenant,
  fields: LicenseUserFields = {},
): Promise<User> {
  const em = app.orm.em.fork();
  const suffix = randomUUID().slice(0, 8);
  const externalId = randomUUID();
  const displayName = fields.displayName ?? `User ${suffix}`;
  const usageLocation = fields.usageLocation === undefined ? 'US' : fields.usageLocation;
  const isServiceAccount = fields.isServiceAccount ?? false;
  const now = app.clock.now();
  const user = em.create(User, {
    ...scopeOf(tenant),
    tenantId: tenant.id,
    externalId,
    displayName,
    firstName: 'Test',
    lastName: suffix,
    userPrincipalName: `user-${suffix}@${tenant.domain}`,
    usageLocation,
    isServiceAccount,
    createdAt: now,
    updatedAt: now,
    deletedAt: fields.deletedAt ?? null,
  });
  const record = cloudUserRecord({
    externalId,
    userPrincipalName: user.userPrincipalName,
    displayName,
    firstName: user.firstName,
    lastName: user.lastName,
    usageLocation,
    isServiceAccount,
    createdAt: now.toISOString(),
    deletedAt: fields.deletedAt?.toISOString() ?? null,
  });
  const cloudUser = em.create(SimulatedCloudObject, {
    tenantExternalId: tenant.externalId,
    kind: 'user',
    externalId,
    data: { ...record },
  });
  await em.persist(cloudUser).flush();
  return user;
}
