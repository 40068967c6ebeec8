import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Loaders } from './core/loaders.js';
import { SCOPE_FILTER } from './core/scope.js';
import type { AppDeps, ServiceContext } from './core/service-context.js';
import { principalOf, type Viewer } from './core/viewer.js';
import { consentBoundProvider } from './tenants/tenant-consent.js';

/** The context of one GraphQL operation, whether it came in on /graphql or through the REST adapter. */
export interface RequestContext extends ServiceContext {
  viewer: Viewer;
  requestId: string;
  loaders: Loaders;
}

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
    provider: consentBoundProvider(deps.provider, viewer.organizationId),
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
 * through the organization's delegated access (consentBoundProvider): a tenant that withdrew its grant
 * refuses every call.
 */
export function createJobContext(
  orm: MikroORM,
  deps: AppDeps,
  scope: ServiceContext['scope'],
  actor: string,
): ServiceContext {
  const em = orm.em.fork();
  em.setFilterParams(SCOPE_FILTER, scope);
  return { ...deps, provider: consentBoundProvider(deps.provider, scope.organizationId), em, scope, actor };
}
