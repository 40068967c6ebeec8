import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** The path of the GraphQL endpoint as the app mounts it (`app.use('/graphql', ...)`). */
const GRAPHQL_PATH = '/graphql';

const noop = () => undefined;

/** Calls a middleware as Express's router does: a throw or a rejected promise goes to `next`. */
function invoke(handler: RequestHandler, req: Request, res: Response, next: NextFunction): void {
  try {
    const returned: unknown = handler(req, res, next);
    if (returned instanceof Promise)
      returned.then(noop, (error: unknown) => next(error || new Error('Rejected promise')));
  } catch (error) {
    next(error);
  }
}

let taken = 0;

/** Requests the GraphQL dispatch has taken in this process (tests read it to know which way a request went). */
export function graphqlDispatchTaken(): number {
  return taken;
}

/**
 * POST /graphql in front of Express's routers (issue #31 goal 1, ninth round), as the REST reads' dispatch table
 * (rest-adapter/dispatch.ts) does for GETs: a GraphQL POST used to walk the app's router over a dozen layers (the
 * export download, metrics, GraphiQL and OpenAPI routers, the home and health routes, the three REST mounts), each
 * with its path match and closures, before reaching its mount; then the guard's own router. None of those layers
 * serves a POST to /graphql, so the dispatch runs the mount's steps directly: the guard's steps, the JSON body and
 * the organization session, the fast path and Apollo (`steps`, in the mount's order), with `req.baseUrl` and
 * `req.url` as Express sets them under the mount. An error goes on to the app's error handling with both restored,
 * as Express restores them. Only the path written exactly `/graphql` (a query string allowed) is taken; another
 * spelling (`/GraphQL`, `/graphql/`), another method (GET, the landing page) or an absolute-form URL is left to
 * Express, which serves it as before. test/http/graphql-lean-run.test.ts compares the answers and log lines of a
 * server with the dispatch and one without.
 */
export function graphqlDispatch(steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const url = req.url;
    // `/graphql` followed by the end or a query string (a fragment is not sent in a request line).
    if (!url.startsWith(GRAPHQL_PATH)) return next();
    const after = url.charCodeAt(GRAPHQL_PATH.length);
    if (!Number.isNaN(after) && after !== 63 /* ? */) return next();
    taken++;
    req.baseUrl = GRAPHQL_PATH;
    req.url = `/${url.slice(GRAPHQL_PATH.length)}`;
    const leave = (error?: unknown): void => {
      req.baseUrl = '';
      req.url = url;
      next(error);
    };
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return leave(error);
      if (index < steps.length) return invoke(steps[index++], req, res, step);
      // Apollo's handler, the last step, always answers: never reached.
      leave(new Error('POST /graphql passed on without an answer'));
    };
    step();
  };
}
