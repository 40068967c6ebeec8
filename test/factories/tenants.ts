import { randomUUID } from 'node:crypto';
import { SimulatedCloudTenant, SimulatedTenantGrant } from '../../src/cloud/simulated/index.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Scope } from '../../src/core/scope.js';
import { Tenant } from '../../src/tenants/tenant.entity.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * The customer's consent: the cloud tenant grants the organization delegated access, as its admin would
 * (docs/security-model.md "Tenant consent"). Onboarding and every sync need it.
 */
export async function grantConsent(app: TestApp, externalId: string, organizationId: string): Promise<void> {
  const change = await (app.deps.clouds as SimulatedCloud).consent.grantDelegatedAccess(
    externalId,
    organizationId,
  );
  if (change.outcome === 'unknownTenant') throw new Error(`No simulated cloud tenant ${externalId}`);
}

/**
 * A tenant of the organization and its twin in the simulated cloud, which granted the organization
 * delegated access (so sync and user writes work).
 */
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
  const grant = em.create(SimulatedTenantGrant, {
    tenantExternalId: externalId,
    partnerOrganizationId: scope.organizationId,
    grantedAt: app.clock.now(),
  });
  await em.persist([cloudTenant, grant, tenant]).flush();
  return tenant;
}
