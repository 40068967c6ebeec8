import type { Viewer } from '../core/viewer.js';

declare global {
  // Express's own extension point for what middlewares attach to a request.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The authenticated caller; set by the authenticate middleware. */
      viewer?: Viewer;
      requestId: string;
      /** What the body parser refused on a REST route, reported after the route's permission check. */
      bodyError?: unknown;
    }
  }
}

export {};
