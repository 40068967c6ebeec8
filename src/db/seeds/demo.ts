import { seedDataProtectionDemo } from '../../backup/data-protection-demo.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SimulatedCloud } from '../../cloud/simulated/index.js';
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
import { DEMO_AVAILABLE_TENANT, DEMO_TENANTS } from './demo-tenants.js';

/** The demo's customers (data only, in their own module: demo-tenants.ts). */
export { DEMO_AVAILABLE_TENANT, DEMO_TENANTS };

export const DEMO_ORGANIZATION_SLUG = 'demo';

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
