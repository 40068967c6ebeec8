import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../core/service-context.js';
import { Organization, Plan } from '../../organizations/organization.entity.js';

export const DEMO_ORGANIZATION_SLUG = 'demo';

/** Seeds the demo organization on first start; returns false when it already exists. */
export async function seedDemoIfEmpty(orm: MikroORM, deps: AppDeps): Promise<boolean> {
  const em = orm.em.fork();
  if (await em.count(Organization, { slug: DEMO_ORGANIZATION_SLUG })) return false;
  const organization = new Organization({
    slug: DEMO_ORGANIZATION_SLUG,
    name: 'Demo MSP',
    plan: Plan.GROWTH,
    createdAt: deps.clock.now(),
  });
  await em.persist(organization).flush();
  return true;
}
