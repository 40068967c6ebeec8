/** Issue #33 item 7: `GET /` points a newcomer at the docs, the IDEs, the OpenAPI document and health. */
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
beforeAll(async () => {
  ({ app } = await sharedSuite());
});
afterAll(() => app.stop());

describe('GET /', () => {
  it('answers JSON with links that all lead somewhere', async () => {
    const res = await app.request<{ links: Record<string, string>; authorization: string }>('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body.authorization).toContain('api-keys create');
    expect(Object.keys(res.body.links)).toEqual(['docs', 'openapi', 'graphiql', 'graphql', 'rest', 'health']);
    for (const [name, path] of Object.entries(res.body.links)) {
      const reached = await fetch(`${app.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      // The REST link needs a key: 401, not 404.
      expect([name, reached.status]).toEqual([name, name === 'rest' ? 401 : 200]);
    }
  });

  it('answers a browser with a page of the same links', async () => {
    const res = await fetch(`${app.baseUrl}/`, { headers: { accept: 'text/html,*/*' } });
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    for (const path of ['/docs', '/graphiql', '/openapi.json', '/health/ready'])
      expect(page).toContain(`href="${path}"`);
  });
});
