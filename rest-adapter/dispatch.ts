import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { routeLayersOf, type ExpressRoute, type RouteLayer } from '../src/core/perf/express-route-layers.js';

/** A route table's router and the prefix it is mounted under (`app.use(prefix, ...steps, router)`). */
export interface DispatchMount {
  prefix: string;
  router: Router;
}

interface Candidate {
  layer: RouteLayer;
  route: ExpressRoute;
  handler: RequestHandler;
}

interface Table {
  prefix: string;
  /** GET routes by the number of `/` in their path, in the router's order. */
  bySlashes: Map<number, Candidate[]>;
}

/** `/` characters of a path without its trailing slashes: a route's path only matches paths with as many. */
function slashesOf(path: string): number {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  let count = 0;
  for (let index = 0; index < end; index++) if (path.charCodeAt(index) === 47) count++;
  return count;
}

function tableOf({ prefix, router }: DispatchMount): Table {
  const bySlashes = new Map<number, Candidate[]>();
  for (const layer of routeLayersOf(router)) {
    const { route } = layer;
    // Only a GET route whose one handler is the REST handler (a CSV route parses its body first): Express serves
    // the rest, HEAD included (the router matches HEAD on any route and then looks for a GET handler).
    if (!route.methods.get || route.stack.length !== 1 || route.stack[0].method !== 'get') continue;
    const slashes = slashesOf(route.path);
    const list = bySlashes.get(slashes) ?? [];
    list.push({ layer, route, handler: route.stack[0].handle });
    bySlashes.set(slashes, list);
  }
  return { prefix, bySlashes };
}

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

/** Requests the dispatch table has taken in this process (tests read it to know which way a request went). */
export function restDispatchTaken(): number {
  return taken;
}

/**
 * The REST read routes' dispatch table, in front of Express's routers (issue #31 goal 2: Express's router walk over
 * the mounts, the guard's router and ~100 routes, with its per-layer closures, was ~6% of a REST list's CPU).
 *
 * Placed where the mounts begin (`app.use` just before them), it takes a GET whose path starts with a mount's
 * prefix exactly as written (`/v1/api`, `/v1`, `/api`, tried in the app's order; another spelling, such as
 * `/V1/...`, is left to Express) and that one of that mount's GET routes matches, asking the router's own route
 * layers in the router's order (src/core/perf/express-route-layers.ts). It then does what Express would: the
 * mount's `steps` (the guard and the body parser with the organization session) with `req.baseUrl` and `req.url`
 * as under the mount, then the route's handler with the router's `req.params` and `req.route` (the request log and
 * the metrics name the route from it); an error goes on to the app's error handling with `req.baseUrl` and
 * `req.url` as Express restores them. Anything else (other methods, a path no route matches, a path the router
 * cannot decode) goes to Express, which serves it as before. test/rest/dispatch.test.ts compares both ways'
 * answers and log lines over every REST read route.
 */
export function restDispatch(mounts: DispatchMount[], steps: RequestHandler[]): RequestHandler {
  const tables = mounts.map(tableOf);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET') return next();
    const url = req.url;
    if (url.charCodeAt(0) !== 47) return next(); // an absolute-form URL: Express's
    const path = req.path;
    let table: Table | undefined;
    for (const candidate of tables) {
      const { prefix } = candidate;
      if (path.length > prefix.length && path.charCodeAt(prefix.length) !== 47) continue;
      const start = path.slice(0, prefix.length);
      if (start.toLowerCase() !== prefix) continue;
      // The app's first mount that takes the path (case-insensitively, as Express) is the one; spelt otherwise,
      // Express names it (req.baseUrl as written).
      if (start !== prefix) return next();
      table = candidate;
      break;
    }
    if (!table) return next();
    const subPath = path.slice(table.prefix.length);
    const candidates = table.bySlashes.get(slashesOf(subPath));
    if (!candidates) return next();
    let chosen: Candidate | undefined;
    let params: Record<string, string> | undefined;
    try {
      for (const candidate of candidates) {
        const match = candidate.layer.match(subPath);
        if (match) {
          chosen = candidate;
          params = match.params;
          break;
        }
      }
    } catch {
      return next(); // a parameter that cannot be decoded: Express's router answers it (404)
    }
    if (!chosen || !params) return next();
    const { route, handler } = chosen;
    taken++;
    req.baseUrl = table.prefix;
    req.url = url.slice(table.prefix.length);
    const leave = (error?: unknown): void => {
      req.baseUrl = '';
      req.url = url;
      next(error || new Error(`REST route ${route.path} passed the request on without answering`));
    };
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return leave(error);
      if (index < steps.length) return invoke(steps[index++], req, res, step);
      req.params = params;
      req.route = route;
      invoke(handler, req, res, leave);
    };
    step();
  };
}
