import express, {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { GraphQLSchema } from 'graphql';
import type { RequestContext } from '../src/context.js';
import { compileRoute, type CompiledRoute } from './compile.js';
import { restHandler } from './handler.js';
import { InvalidRequestError } from '../src/core/errors.js';
import { CSV_BODY_LIMIT_BYTES, type RouteDefinition } from './route.js';
import { restSchemaOf } from './rest-schema.js';

export interface RestRouterDeps {
  schema: GraphQLSchema;
  contextFor(req: Request): RequestContext;
  logError(error: unknown, req: Request): void;
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
      ...(route.definition.csvBody ? [csvBodyParser()] : []),
      restHandler(route, { schema: restSchema, contextFor: deps.contextFor, logError: deps.logError }),
    );
  }
  return { router, compiled };
}
