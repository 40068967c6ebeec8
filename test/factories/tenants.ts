import { randomUUID } from 'node:crypto';
import { SimulatedCloudTenant } from '../../src/cloud/simulated/simulated-cloud.entity.js';
import type { Scope } from '../../src/core/scope.js';
import { Tenant } from '../../src/tenants/tenant.entity.js';
import type { TestApp } from '../helpers/test-app.js';

/** A tenant of the organization and its twin in the simulated cloud (so sync and user writes work). */
export async function createTenant(
  app: TestApp,
  scope: Scope,
  fields: {
    name?: string;
    domain?: string;
    extraDomains?: string[];
    lastSyncedAt?: Date | null;
    createdAt?: Date;
  } = {},
): Promise<Tenant> {
  const em = app.orm.em.fork();
  const suffix = randomUUID().slice(0, 8);
  const domain = fields.domain ?? `tenant-${suffix}.example.com`;
  const externalId = randomUUID();
  const domains = [domain, ...(fields.extraDomains ?? [])];
  const cloudTenant = em.create(SimulatedCloudTenant, {
    externalId,
    displayName: fields.name ?? `Tenant ${suffix}`,
    domains,
    seed: 1,
  });
  const tenant = new Tenant(scope, { name: fields.name ?? `Tenant ${suffix}`, domain, domains, externalId });
  tenant.createdAt = fields.createdAt ?? app.clock.now();
  tenant.lastSyncedAt = fields.lastSyncedAt === undefined ? app.clock.now() : fields.lastSyncedAt;
  await em.persist([cloudTenant, tenant]).flush();
  return tenant;
}
