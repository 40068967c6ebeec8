import { DOCS_TITLE } from '../../rest-adapter/openapi/serve.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

/** GET /openapi.json and the API reference at /docs, served from npm assets without a key and without a CDN. */
let app: SharedApp;
beforeAll(async () => {
  app = await sharedApp();
}, 60_000);
afterAll(() => app.stop());

it('serves the OpenAPI document without a key, naming this server’s OAuth endpoints', async () => {
  const res = await app.request<{ openapi: string; paths: Record<string, unknown>; components: unknown }>(
    'GET',
    '/openapi.json',
  );
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(Object.keys(res.body.paths)).toContain('/v1/tenants/{id}/users');
  expect(JSON.stringify(res.body.components)).toContain('http://app.test/oauth/token');
});

it('serves /docs with a stable title, its assets from the server itself, and no external address', async () => {
  const page = await app.request<string>('GET', '/docs');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.body).toContain(`<title>${DOCS_TITLE}</title>`);
  expect(page.body).not.toMatch(/https?:\/\//);
  const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
  expect(assets).toEqual(
    expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']),
  );
  for (const asset of assets) {
    const res = await fetch(app.baseUrl + asset);
    expect([asset, res.status]).toEqual([asset, 200]);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  }
  const init = await (await fetch(`${app.baseUrl}/docs/init.js`)).text();
  expect(init).toContain("url: '/openapi.json'");
  expect(init).toContain('validatorUrl: null');
});
