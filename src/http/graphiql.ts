import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { GRAPHIQL_INIT_SCRIPT } from './graphiql-init.js';

/**
 * The offline GraphQL IDE (docs/operations.md): GraphiQL's prebuilt browser bundle and its React peers,
 * served from node_modules by us, never from a CDN. The page is static: every query it runs is sent by
 * the browser to /graphql with the key typed into the header editor, and passes the same guard as any
 * client. The page itself executes nothing and needs no credentials.
 */
const require = createRequire(import.meta.url);
/** A file of an installed package (through its package.json: packages' `exports` hide these files). */
const npmFile = (pkg: string, file: string) =>
  path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

/** URL name → npm file; an allowlist, so nothing else in node_modules is reachable. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: npmFile('react', 'umd/react.production.min.js'), type: 'js' },
  'react-dom.js': { file: npmFile('react-dom', 'umd/react-dom.production.min.js'), type: 'js' },
  'graphiql.js': { file: npmFile('graphiql', 'graphiql.min.js'), type: 'js' },
  'graphiql.css': { file: npmFile('graphiql', 'graphiql.min.css'), type: 'css' },
  'graphql-ws.js': { file: npmFile('graphql-ws', 'umd/graphql-ws.min.js'), type: 'js' },
};

/**
 * Scripts and styles from this origin only (GraphiQL sets inline styles on its panes, hence
 * 'unsafe-inline' for styles alone); requests to this origin over HTTP and WebSocket.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>GraphiQL · MSP administration API</title>
  <link rel="stylesheet" href="/graphiql/assets/graphiql.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/assets/react.js"></script>
  <script src="/graphiql/assets/react-dom.js"></script>
  <script src="/graphiql/assets/graphql-ws.js"></script>
  <script src="/graphiql/assets/graphiql.js"></script>
  <script src="/graphiql/assets/init.js"></script>
</body>
</html>
`;

export function graphiqlRouter(): express.Router {
  const router = express.Router();
  const page = (_req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.type('html').send(PAGE);
  };
  router.get('/graphiql', page);
  router.get('/graphiql/', page);
  router.get('/graphiql/assets/init.js', (_req, res) => {
    res.type('js').send(GRAPHIQL_INIT_SCRIPT);
  });
  router.get('/graphiql/assets/:name', (req: Request<{ name: string }>, res: Response, next) => {
    if (!Object.hasOwn(ASSETS, req.params.name)) return next();
    const asset = ASSETS[req.params.name];
    // Versioned with the lock file: an hour of browser caching is safe and spares reloading 3.5 MB.
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type(asset.type).sendFile(asset.file);
  });
  return router;
}
