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
  // fork with its unit of work and filter parameters was ~3% of a REST list's CPU (docs/benchmarks.md). The
  // accessor sits on the context's prototype, not on the object: Apollo copies the context's own properties into
  // a clone for every operation (Object.assign, which would call an own getter and fork each time); the clone
  // keeps the prototype, so it forks on first use too, and shares the one fork. `{ ...ctx, em }` sets its own.
  let em: EntityManager | undefined;
  const lazy = Object.create(null, {
    em: {
      get(): EntityManager {
        if (!em) {
          em = orm.em.fork();
          em.setFilterParams(SCOPE_FILTER, scope);
        }
        return em;
      },
      set(value: EntityManager) {
        em = value;
      },
    },
  }) as { em: EntityManager };
  const own: Omit<RequestContext & LeanContext, 'em'> = {
    ...deps,
    cloud: cloudAccess(deps.clouds, scope),
    sharedEm: orm.em,
    scope,
    actor: principalOf(viewer),
    viewer,
    requestId,
    loaders: new Loaders(() => ctx),
  };
  const ctx: RequestContext & LeanContext = Object.assign(Object.create(lazy) as typeof lazy, own);
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
