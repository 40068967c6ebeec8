import { seedDataProtectionDemo } from '../../backup/data-protection-demo.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SimulatedCloud, type SimulatedTenantSpec } from '../../cloud/simulated/index.js';
import { cloudAccess } from '../../cloud/cloud-access.js';
import { Environment, SCOPE_FILTER, type Scope } from '../../core/scope.js';
import type { AppDeps, ServiceContext } from '../../core/service-context.js';
import { seedDemoMember } from '../../members/demo-member.js';
import { Organization, Plan } from '../../organizations/organization.entity.js';
import { onboardTenant } from '../../tenants/tenant-onboarding.js';
import { lockPortalCounts } from '../../portal/portal-activity-lock.js';
import { seedEnrollmentDemo } from '../../device-management/enrollment-demo.js';
import { SYNC_STEPS } from '../../features.js';
import { reconcileTenant } from '../../tenants/tenant-reconcile.js';
import type { Tenant } from '../../tenants/tenant.entity.js';
import { seedUserManagementDemo } from '../../user-management/user-management-demo.js';

export const DEMO_ORGANIZATION_SLUG = 'demo';

/**
 * The demo organization's customers, onboarded into its sandbox. Fixed seeds and ids: every fresh
 * database gets the same directories (dates are relative to the moment of seeding).
 */
export const DEMO_TENANTS: SimulatedTenantSpec[] = [
  {
    externalId: '3f1c2a9e-5b7d-4e08-9c61-0a2d4b6e8f01',
    displayName: 'Contoso Dental Group',
    domains: ['contosodental.com', 'contosodental.onmicrosoft.com'],
    seed: 1001,
    employees: 42,
    country: 'US',
    departments: ['Clinical', 'Front Office', 'Finance', 'IT'],
    suite: 'SPB',
  },
  {
    externalId: '8a4e6c1d-2f90-4b3a-a7e5-1c9d3f5b7a02',
    displayName: 'Northwind Logistics',
    domains: ['northwindlogistics.com', 'northwindlogistics.onmicrosoft.com'],
    seed: 1002,
    employees: 130,
    country: 'US',
    departments: [
      'Sales',
      'Operations',
      'Warehouse',
      'Transport',
      'Customer Service',
      'Finance',
      'Human Resources',
      'IT',
    ],
    hybrid: true,
  },
  {
    externalId: 'c27b9e40-6d13-4f5a-8b2c-7e0a1d3c5f03',
    displayName: 'Fabrikam Architects',
    domains: ['fabrikam-architects.co.uk', 'fabrikamarchitects.onmicrosoft.com'],
    seed: 1003,
    employees: 34,
    country: 'GB',
    departments: ['Design', 'Engineering', 'Marketing', 'Finance'],
    suite: 'O365_BUSINESS_PREMIUM',
  },
  {
    externalId: '5e8d0b72-9a46-4c1f-b3d8-2f6a8c0e1b04',
    displayName: 'Bluebird Veterinary Clinics',
    domains: ['bluebirdvets.ca', 'bluebirdvets.onmicrosoft.com'],
    seed: 1004,
    employees: 56,
    country: 'CA',
    departments: ['Veterinary', 'Front Office', 'Human Resources', 'Finance'],
  },
  {
    externalId: '9b3f7d15-0c82-4e6a-9f41-8d2b4a6c0e05',
    displayName: 'Harbor & Pine Legal LLP',
    domains: ['harborpinelegal.com', 'harborpinelegal.onmicrosoft.com'],
    seed: 1005,
    employees: 28,
    country: 'US',
    departments: ['Legal', 'Finance', 'IT'],
    hybrid: true,
    suite: 'SPB',
  },
  {
    externalId: 'e4a6c8f0-1b3d-4f5e-8a7c-9e1b3d5f7a06',
    displayName: 'Alpenblick Bau AG',
    domains: ['alpenblick-bau.ch', 'alpenblickbau.onmicrosoft.com'],
    seed: 1006,
    employees: 75,
    country: 'CH',
    departments: ['Engineering', 'Field Operations', 'Sales', 'Finance', 'IT'],
  },
];

/**
 * A customer that exists in the simulated cloud and granted the demo organization delegated access, but is
 * not onboarded yet, to try onboarding with (`onboardTenant(input: {externalId})` or
 * `npm run -s cli -- tenants onboard --org demo --external-id …`).
 */
export const DEMO_AVAILABLE_TENANT: SimulatedTenantSpec = {
  externalId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  displayName: 'Cedar Street Bakery',
  domains: ['cedarstreetbakery.com', 'cedarstreetbakery.onmicrosoft.com'],
  seed: 1007,
  employees: 18,
  country: 'US',
  departments: ['Operations', 'Sales', 'Finance'],
};

/**
 * Seeds the demo organization ("Demo MSP", plan Growth) on first start: the simulated cloud gets the
 * demo tenants, and the sandbox onboards and syncs them (directly, not through the job queue), so the
 * API has data at once. Returns false when the organization already exists (or another process is
 * seeding it at this moment).
 */
export async function seedDemoIfEmpty(orm: MikroORM, deps: AppDeps): Promise<boolean> {
  const em = orm.em.fork();
  if (await em.count(Organization, { slug: DEMO_ORGANIZATION_SLUG })) return false;

  // The demo's customers live in the simulated cloud whatever the configured provider is.
  const cloud = deps.clouds instanceof SimulatedCloud ? deps.clouds : new SimulatedCloud(orm, deps.clock);
  // Committed first: the provider reads the cloud on its own connections during the syncs below.
  for (const spec of [...DEMO_TENANTS, DEMO_AVAILABLE_TENANT]) await cloud.createTenant(spec);

  const organization = new Organization({
    slug: DEMO_ORGANIZATION_SLUG,
    name: 'Demo MSP',
    plan: Plan.GROWTH,
    createdAt: deps.clock.now(),
  });
  // The customers consent to the demo organization (the simulated cloud's own committed rows, read by
  // onboarding and sync on the provider's connections). Should the seed below fail, these grants name an
  // organization id that never comes to exist, and the next start grants a new one.
  for (const spec of [...DEMO_TENANTS, DEMO_AVAILABLE_TENANT]) {
    await cloud.consent.grantDelegatedAccess(spec.externalId!, organization.id);
  }
  const scope: Scope = { organizationId: organization.id, environment: Environment.SANDBOX };
  em.setFilterParams(SCOPE_FILTER, scope);
  const tenants: Tenant[] = [];
  try {
    // One transaction: a failed seed leaves nothing behind and is tried again on the next start.
    await em.transactional(async (tx) => {
      await tx.persist(organization).flush();
      await seedDemoMember(tx, organization.id, deps.clock);
      const ctx: ServiceContext = {
        ...deps,
        clouds: cloud,
        cloud: cloudAccess(cloud, scope),
        em: tx,
        scope,
        actor: 'system:demo-seed',
      };
      for (const spec of DEMO_TENANTS)
        tenants.push(await onboardTenant(ctx, { externalId: spec.externalId! }));
      // Every demo tenant's users and licenses are written in this one transaction: their portal count locks
      // first, all in the one order (the syncs' triggers then take locks it holds).
      await lockPortalCounts(
        tx,
        tenants.map((tenant) => tenant.id),
      );
      for (const tenant of tenants) {
        // Before the first sync, which decides the tenant's enrollment attempts with it.
        await seedEnrollmentDemo(ctx, tenant.id);
        await reconcileTenant(ctx, tenant.id, SYNC_STEPS, async () => undefined);
      }
      await seedDataProtectionDemo(ctx, tenants);
    });
  } catch (error) {
    const seededElsewhere =
      error instanceof UniqueConstraintViolationException &&
      (await orm.em.fork().count(Organization, { slug: DEMO_ORGANIZATION_SLUG })) > 0;
    if (seededElsewhere) return false;
    throw error;
  }
  // After the commit: these run the area's jobs, which read on their own connections.
  await seedUserManagementDemo(orm, { ...deps, clouds: cloud }, scope, tenants[0]);
  return true;
}
