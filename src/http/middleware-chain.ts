import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/**
 * Why these exist (issue #31 goals 1 and 3, docs/benchmarks.md "seventh round, GraphQL latency"): an Express
 * router that a request enters and leaves without an answer hands it on with `setImmediate` (router 2.x, "no
 * more matching layers"). Each such exit is a wait of a whole event-loop turn, behind every other request's
 * socket and SQL callbacks of that turn: under load, five of them stood between a /graphql request and its first
 * SQL statement. Nothing here changes what runs or in which order, only that the request goes on at once.
 */

/** An Express 5 layer, as router 2.x keeps it: its handler, and whether it is a route (one path, methods). */
interface RouterLayer {
  route?: unknown;
  match(path: string): unknown;
}

/**
 * `router`, entered only by a request that one of its layers matches: a path no layer matches goes on at once
 * (as the router would have done one event-loop turn later). Matching is the router's own (each layer's
 * `match`, on the same path), so a route added to the router is found without being listed here.
 */
export function enterWhenRouted(router: Router): RequestHandler {
  const layers = (router as unknown as { stack: RouterLayer[] }).stack;
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    for (const layer of layers) {
      let matched: unknown;
      try {
        matched = layer.match(path);
      } catch {
        matched = true; // a malformed path: the router reports it as it always did
      }
      if (matched) {
        router(req, res, next);
        return;
      }
    }
    next();
  };
}

/**
 * The handlers one after the other, as a router with only these would run them (an error skips the rest and
 * goes to `next`, a thrown error or a rejected promise too), leaving with `next()` at once rather than a turn
 * of the event loop later.
 */
export function chainMiddleware(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error === 'router') return next(); // leave the chain, as a router is left
      if (error !== undefined && error !== null && error !== 'route') return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise)
          returned.then(undefined, (rejection: unknown) => step(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
