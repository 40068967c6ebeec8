import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { LeanContext } from './core/lean-read.js';
import { Loaders } from './core/loaders.js';
import type { RequestContext } from './core/request-context.js';
import { SCOPE_FILTER, type Scope } from './core/scope.js';
import type { AppDeps, ServiceContext } from './core/service-context.js';
import { principalOf, type Viewer } from './core/viewer.js';
import { cloudAccess, type CloudAccess } from './cloud/cloud-access.js';
import { connectedClouds } from './cloud-connection/connected-clouds.js';

export type { RequestContext } from './core/request-context.js';

/**
 * The request context's `em`, forked on first use: a list read through lean reads (the hot path) never touches an
 * identity map, and a fork with its unit of work and filter parameters was ~3% of a REST list's CPU
 * (docs/benchmarks.md). The accessor is on this class's prototype and its state in an own property: Apollo copies
 * a context's own properties into a clone for every operation (Object.assign, which would call an own getter and
 * fork each time); the clone keeps the prototype and the same `lazyEm` box, so it forks on first use too, and
 * shares the one fork. `{ ...ctx, em }` gives its copy an `em` of its own, as before.
 */
class LazyEntityManager {
  readonly lazyEm: { em: EntityManager | undefined; orm: MikroORM; scope: Scope };

  constructor(orm: MikroORM, scope: Scope) {
    this.lazyEm = { em: undefined, orm, scope };
  }

  get em(): EntityManager {
    const lazy = this.lazyEm;
    if (!lazy.em) {
      lazy.em = lazy.orm.em.fork();
      lazy.em.setFilterParams(SCOPE_FILTER, lazy.scope);
    }
    return lazy.em;
  }

  set em(value: EntityManager) {
    this.lazyEm.em = value;
  }
}

export function createRequestContext(
  orm: MikroORM,
  deps: AppDeps,
  viewer: Viewer,
  requestId: string = randomUUID(),
): RequestContext & LeanContext {
  const scope = { organizationId: viewer.organizationId, environment: viewer.environment };
  const ctx: RequestContext & LeanContext = Object.assign(new LazyEntityManager(orm, scope), deps, {
    cloud: cloudAccess(connectedClouds(orm, deps), scope),
    sharedEm: orm.em,
    scope,
    actor: principalOf(viewer),
    viewer,
    requestId,
    loaders: new Loaders(() => ctx),
  });
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
  return { ...deps, cloud: cloudAccess(connectedClouds(orm, deps), scope), em, scope, actor };
}

/**
 * The cloud as an organization sees it in one environment (`ctx.cloud`), for work that acts for several
 * organizations and builds no context for each: the provider the organization's connection selects.
 */
export function createCloudAccess(orm: MikroORM, deps: AppDeps, scope: ServiceContext['scope']): CloudAccess {
  return cloudAccess(connectedClouds(orm, deps), scope);
}
