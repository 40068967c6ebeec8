import type { MikroORM } from '@mikro-orm/postgresql';
import { createJobContext } from '../context.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import { isConsentRefusal } from './tenant-consent.js';
import { Tenant } from './tenant.entity.js';

/**
 * Runs `work` for every tenant of every organization, one after the other, each in its own scope and job
 * context (actor `actor`): the scheduled copies from the cloud (backup catalog, contact sync). A tenant that
 * withdrew its grant keeps what it had and does not stop the others; any other failure fails the run, which
 * the job queue retries.
 */
export async function forEveryTenant(
  orm: MikroORM,
  deps: AppDeps,
  actor: string,
  work: (ctx: ServiceContext, tenant: Tenant) => Promise<void>,
): Promise<void> {
  const tenants = await orm.em.fork().find(Tenant, {}, { filters: false, orderBy: { id: 'asc' } });
  for (const tenant of tenants) {
    const scope = { organizationId: tenant.organizationId, environment: tenant.environment };
    try {
      await work(createJobContext(orm, deps, scope, actor), tenant);
    } catch (error) {
      if (!isConsentRefusal(error)) throw error;
    }
  }
}
