import { Router, type Request } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../src/context.js';
import { compileRoute, type CompiledRoute } from './compile.js';
import { restHandler } from './handler.js';
import type { RouteDefinition } from './route.js';
import { restSchemaOf } from './rest-schema.js';

export interface RestRouterDeps {
  schema: GraphQLSchema;
  contextFor(req: Request): RequestContext;
  logError(error: unknown, req: Request): void;
}

const METHOD = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/**
 * Builds an Express router serving a route table. Static paths are registered before
 * parameterised ones (`/alerts/statistics` before `/alerts/:id`) so table order never matters.
 */
export function restRouter(
  routes: RouteDefinition[],
  deps: RestRouterDeps,
): { router: Router; compiled: CompiledRoute[] } {
  const restSchema = restSchemaOf(deps.schema);
  // Compiled against the REST copy, so variables are checked with the SPEC enum spellings too.
  const compiled = routes.map((route) => compileRoute(route, restSchema));
  const ordered = [...compiled].sort(
    (a, b) => Number(a.definition.path.includes(':')) - Number(b.definition.path.includes(':')),
  );
  const router = Router();
  for (const route of ordered) {
    router[METHOD[route.definition.method]](
      route.definition.path,
      restHandler(route, { schema: restSchema, contextFor: deps.contextFor, logError: deps.logError }),
    );
  }
  return { router, compiled };
}
