import express, {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../src/core/request-context.js';
import { compileRoute, type CompiledRoute } from './compile.js';
import { restHandler } from './handler.js';
import { InvalidRequestError } from '../src/core/errors.js';
import { CSV_BODY_LIMIT_BYTES, type RouteDefinition } from './route.js';
import { restSchemaOf } from './rest-schema.js';

export interface RestRouterDeps {
  schema: GraphQLSchema;
  contextFor(req: Request): RequestContext;
  logError(error: unknown, req: Request): void;
  /**
   * When each route's document is parsed and validated against the schema: at start-up (the default, so a route
   * that does not fit the schema stops the server), or on the route's first request. The tests start a server per
   * file and call a few of its 125 routes; test/rest/route-table.test.ts compiles every route at once.
   */
  compileRoutes?: 'at-start' | 'on-first-request';
  /** false: every route's document runs through graphql-jit, none through its plan (./lean-run.ts; for a test). */
  leanRuns?: boolean;
}

/** The text/csv body parser of the routes that take one (`csvBody`), with body-parser's errors as 400s. */
function csvBodyParser(): RequestHandler {
  const parse = express.text({ type: 'text/csv', limit: CSV_BODY_LIMIT_BYTES });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (error?: unknown) => {
      if (!error) return next();
      const type = typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
      if (type === 'entity.too.large') {
        return next(
          new InvalidRequestError(`The CSV body is larger than ${CSV_BODY_LIMIT_BYTES} bytes`, [
            { field: 'body', problem: `must be at most ${CSV_BODY_LIMIT_BYTES} bytes` },
          ]),
        );
      }
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        return next(
          new InvalidRequestError('The CSV body must be UTF-8', [
            { field: 'body', problem: 'must be UTF-8' },
          ]),
        );
      }
      next(error);
    });
}

const METHOD = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const;

/**
 * Builds an Express router serving a route table. Static paths are registered before
 * parameterised ones (`/alerts/statistics` before `/alerts/:id`) so table order never matters.
 * `compiled` holds the routes compiled at start-up (none when they compile on their first request).
 */
export function restRouter(
  routes: RouteDefinition[],
  deps: RestRouterDeps,
): { router: Router; compiled: CompiledRoute[] } {
  const restSchema = restSchemaOf(deps.schema);
  const handlerDeps = { schema: restSchema, contextFor: deps.contextFor, logError: deps.logError };
  // Compiled against the REST copy, so variables are checked with the SPEC enum spellings too.
  const compiled =
    deps.compileRoutes === 'on-first-request'
      ? []
      : routes.map((route) => compileRoute(route, restSchema, { leanRuns: deps.leanRuns }));
  const handlerOf = (definition: RouteDefinition, index: number): RequestHandler => {
    if (deps.compileRoutes !== 'on-first-request') return restHandler(compiled[index], handlerDeps);
    let handler: RequestHandler | undefined;
    return (req, res, next) => {
      handler ??= restHandler(compileRoute(definition, restSchema, { leanRuns: deps.leanRuns }), handlerDeps);
      return handler(req, res, next);
    };
  };
  const ordered = routes
    .map((definition, index) => ({ definition, handler: handlerOf(definition, index) }))
    .sort((a, b) => Number(a.definition.path.includes(':')) - Number(b.definition.path.includes(':')));
  const router = Router();
  for (const { definition, handler } of ordered) {
    router[METHOD[definition.method]](
      definition.path,
      ...(definition.csvBody ? [csvBodyParser()] : []),
      handler,
    );
  }
  return { router, compiled };
}
