import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { LeanContext } from './core/lean-read.js';
import { Loaders } from './core/loaders.js';
import type { RequestContext } from './core/request-context.js';
import { SCOPE_FILTER } from './core/scope.js';
import type { AppDeps, ServiceContext } from './core/service-context.js';
import { principalOf, type Viewer } from './core/viewer.js';
import { cloudAccess } from './cloud/cloud-access.js';

export type { RequestContext } from './core/request-context.js';

export function createRequestContext(
  orm: MikroORM,
  deps: AppDeps,
  viewer: Viewer,
  requestId: string = randomUUID(),
): RequestContext & LeanContext {
  const scope = { organizationId: viewer.organizationId, environment: viewer.environment };
  // Forked on first use: a list read through lean reads (the hot path) never touches an identity map, and a
  // fork with its unit of work and filter parameters was ~3% of a REST list's CPU (docs/benchmarks.md).
  let em: EntityManager | undefined;
  const ctx: RequestContext & LeanContext = {
    ...deps,
    cloud: cloudAccess(deps.clouds, scope),
    get em(): EntityManager {
      if (!em) {
        em = orm.em.fork();
        em.setFilterParams(SCOPE_FILTER, scope);
      }
      return em;
    },
    set em(value: EntityManager) {
      em = value;
    },
    sharedEm: orm.em,
    scope,
    actor: principalOf(viewer),
    viewer,
    requestId,
    loaders: new Loaders(() => ctx),
  };
  return ctx;
}

/**
 * A service context for background work acting inside one organization's scope. Both kinds see the cloud
 * as the organization in that environment (`ctx.cloud`, src/cloud/cloud-access.ts): a tenant that withdrew
 * its grant refuses to give out its client.
 */
export function createJobContext(
  orm: MikroORM,
  deps: AppDeps,
  scope: ServiceContext['scope'],
  actor: string,
): ServiceContext {
  const em = orm.em.fork();
  em.setFilterParams(SCOPE_FILTER, scope);
  return { ...deps, cloud: cloudAccess(deps.clouds, scope), em, scope, actor };
}
