/**
 * src/http/middleware-chain.ts (issue #31): an app-level router a request does not belong to is passed at once,
 * and /graphql's guard steps run as a router would run them, without a turn of the event loop on the way out.
 * Each case is answered the same with and without them (a router 2.x exit is the `setImmediate` counted here).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { chainMiddleware, enterWhenRouted } from '../../src/http/middleware-chain.js';

/** Serves `app` once per request and returns status and body. */
async function call(app: express.Express, path: string, method = 'GET'): Promise<[number, string]> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { method });
    return [response.status, await response.text()];
  } finally {
    server.close();
  }
}

function routerWithRoutes(): express.Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => void res.send('docs'));
  router.get('/docs/:name', (req: Request<{ name: string }>, res, next) =>
    req.params.name === 'known' ? void res.send(`asset ${req.params.name}`) : next(),
  );
  router.use('/prefix', (_req, res) => void res.send('prefixed'));
  return router;
}

/** The same app with the router mounted plainly or through `enterWhenRouted`, and a handler after it. */
function appWith(wrap: boolean): express.Express {
  const app = express();
  const router = routerWithRoutes();
  app.use(wrap ? enterWhenRouted(router) : router);
  app.use((req, res) => void res.status(404).send(`after ${req.path}`));
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    res.status(400).send(`error ${error.message}`);
  });
  return app;
}

describe('enterWhenRouted', () => {
  it.each(['/docs', '/docs/known', '/docs/unknown', '/prefix/x', '/other', '/docs/%E0%A4%A', '/DOCS'])(
    'answers %s as the plain router does',
    async (path) => {
      expect(await call(appWith(true), path)).toEqual(await call(appWith(false), path));
    },
  );

  it('passes a path no route matches without entering the router, so without a turn of the event loop', () => {
    let entered = false;
    const router = express.Router();
    router.use('/only', () => (entered = true));
    const next = jest.fn();
    enterWhenRouted(router)({ path: '/graphql' } as Request, {} as Response, next);
    expect(next).toHaveBeenCalledWith(); // synchronously, with no error
    expect(entered).toBe(false);
  });
});

describe('chainMiddleware', () => {
  const steps = (log: string[]): RequestHandler[] => [
    (_req, _res, next) => {
      log.push('first');
      next();
    },
    async (req, _res, next) => {
      await Promise.resolve();
      log.push('second');
      if (req.path === '/fail') return next(new Error('refused'));
      if (req.path === '/throw') throw new Error('rejected');
      next();
    },
    (req, _res, next) => {
      log.push('third');
      if (req.path === '/sync-throw') throw new Error('thrown');
      next();
    },
  ];
  function appWith(chain: boolean, log: string[]): express.Express {
    const app = express();
    if (chain) app.use(chainMiddleware(steps(log)));
    else {
      const router = express.Router();
      router.use(...steps(log));
      app.use(router);
    }
    app.use((req, res) => void res.send(`handled ${req.path}`));
    app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
      void _next;
      res.status(500).send(`error ${error.message}`);
    });
    return app;
  }

  it.each(['/ok', '/fail', '/throw', '/sync-throw'])(
    'runs %s as a router of the same steps does',
    async (path) => {
      const chained: string[] = [];
      const routed: string[] = [];
      expect(await call(appWith(true, chained), path)).toEqual(await call(appWith(false, routed), path));
      expect(chained).toEqual(routed);
    },
  );

  it('goes on after its last step at once, where a router waits for setImmediate', async () => {
    const counted = jest.spyOn(global, 'setImmediate');
    const next = jest.fn();
    chainMiddleware([(_req, _res, step) => step(), (_req, _res, step) => step()])(
      {} as Request,
      {} as Response,
      next,
    );
    expect(next).toHaveBeenCalledWith();
    expect(counted).not.toHaveBeenCalled();
    counted.mockRestore();
  });
});
