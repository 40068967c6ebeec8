/**
 * Written against router 2.3.0 (Express 5's router; checked at start-up: ./versions.ts).
 *
 * Why: the REST dispatch table (rest-adapter/dispatch.ts) must pick, for a path, the very route Express's router
 * would pick and give the handler the same `req.params` and `req.route`. Rather than match paths a second way,
 * it asks the router's own route layers: `router.stack` holds a Layer per route in registration order, its
 * `match(path)` is what the router calls (path-to-regexp with the router's options: case-insensitive, an
 * optional trailing slash, parameters decoded, a bad `%` escape thrown), `route` is the Express Route that
 * `req.route` is set to, and `route.stack` the route's own handlers, each with the method it serves.
 *
 * The internals: `Router#stack`, `Layer#match` (returns `{ params, path, keys, pattern }` or false), `Layer#route`,
 * `Route#path`, `Route#methods`, `Route#stack` (Layers with `method` and `handle`) are not documented. A release
 * that renames them makes `routeLayersOf` throw at start-up, not answer differently.
 */
import type { RequestHandler, Router } from 'express';

/** An Express Route as the router keeps it. */
export interface ExpressRoute {
  path: string;
  methods: Record<string, boolean | undefined>;
  stack: Array<{ method?: string; handle: RequestHandler }>;
}

/** One route of a router: its path matcher, the Route and the one handler serving `method`. */
export interface RouteLayer {
  route: ExpressRoute;
  /** The router's own matching: the decoded parameters, false when the path is not this route's. */
  match(path: string): { params: Record<string, string> } | false;
}

interface RawLayer {
  route?: ExpressRoute;
  match?: unknown;
}

/** The router's route layers, in the order the router tries them. */
export function routeLayersOf(router: Router): RouteLayer[] {
  const stack = (router as unknown as { stack?: RawLayer[] }).stack;
  if (!Array.isArray(stack)) throw new Error('express-route-layers: Router#stack is not an array');
  return stack.map((layer) => {
    const { route } = layer;
    if (
      typeof layer.match !== 'function' ||
      !route ||
      typeof route.path !== 'string' ||
      typeof route.methods !== 'object' ||
      !Array.isArray(route.stack)
    )
      throw new Error('express-route-layers: a route layer without match/route/path/methods/stack');
    return layer as RouteLayer;
  });
}
