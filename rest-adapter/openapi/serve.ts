import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { RouteMount } from '../route.js';
import { buildOpenApiDocument } from './document.js';
import { DOCS_TITLE } from './docs-title.js';

/** The title of the API reference page (browser tests look for it). */
export { DOCS_TITLE };

/** The swagger-ui-dist files the page needs, served from node_modules: no CDN, works offline. */
const SWAGGER_ASSETS = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
];

const swaggerDirectory = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${DOCS_TITLE}</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/swagger-ui-standalone-preset.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * Swagger UI's start: the document of this server, try-it-out on, and no call to the online validator (offline).
 * "Authorize" takes a pasted API key (ApiKey: bearer) or runs the OAuth flow back to /docs/oauth2-redirect.html.
 * Tags start collapsed and the schema section hidden: expanding every operation of a 1 MB document took
 * Chromium over ten seconds on two busy cores; a deep link (#/tag/operation) still opens its own operation.
 */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: -1,
  tryItOutEnabled: true,
  validatorUrl: null,
  oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect.html',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/**
 * GET /openapi.json (the document, built once from the route table and the schema) and GET /docs (the API
 * reference). Public: the document describes the API, it holds no data; calls made from the page need a key.
 */
export function openApiRouter(
  schema: GraphQLSchema,
  publicUrl: string,
  mounts: readonly RouteMount[],
): Router {
  let document: string | null = null;
  const router = Router();
  router.get('/openapi.json', (_req: Request, res: Response) => {
    document ??= JSON.stringify(buildOpenApiDocument(schema, { publicUrl, mounts }));
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req: Request, res: Response) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req: Request, res: Response) => {
    res.type('text/javascript').send(INIT);
  });
  const assets = express.static(swaggerDirectory, { index: false, fallthrough: true, maxAge: '1h' });
  for (const asset of SWAGGER_ASSETS)
    router.get(`/docs/${asset}`, (req, res, next) => {
      req.url = `/${asset}`;
      assets(req, res, next);
    });
  return router;
}
