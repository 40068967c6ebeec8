import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Loaders } from './core/loaders.js';
import type { RequestContext } from './core/request-context.js';
import { SCOPE_FILTER } from './core/scope.js';
import type { AppDeps, ServiceContext } from './core/service-context.js';
import { principalOf, type Viewer } from './core/viewer.js';
import { cloudAccess, type CloudAccess } from './cloud/cloud-access.js';
import { connectedClouds } from './cloud-connection/connected-clouds.js';

export type { RequestContext } from './core/request-context.js';

export function createRequestContext(
  orm: MikroORM,
  deps: AppDeps,
  viewer: Viewer,
  requestId: string = randomUUID(),
): RequestContext {
  const em = orm.em.fork();
  em.setFilterParams(SCOPE_FILTER, {
    organizationId: viewer.organizationId,
    environment: viewer.environment,
  });
  const ctx: RequestContext = {
    ...deps,
    cloud: cloudAccess(connectedClouds(orm, deps), {
      organizationId: viewer.organizationId,
      environment: viewer.environment,
    }),
    em,
    scope: { organizationId: viewer.organizationId, environment: viewer.environment },
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
  return { ...deps, cloud: cloudAccess(connectedClouds(orm, deps), scope), em, scope, actor };
}

/**
 * The cloud as an organization sees it in one environment (`ctx.cloud`), for work that acts for several
 * organizations and builds no context for each: the provider the organization's connection selects.
 */
export function createCloudAccess(orm: MikroORM, deps: AppDeps, scope: ServiceContext['scope']): CloudAccess {
  return cloudAccess(connectedClouds(orm, deps), scope);
}
