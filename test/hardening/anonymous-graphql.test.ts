import { createOrganizationWithKeys } from '../factories/shared.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;

beforeAll(async () => {
  app = await sharedApp();
});
afterAll(() => app.stop());

/** Accepts HTML but prefers JSON: a browser-looking request that Apollo would execute, not render. */
const MIXED_ACCEPT = 'application/json, text/html;q=0.9';
const INTROSPECTION = encodeURIComponent('{ __schema { queryType { name } } }');

function expectRefused(res: { status: number; headers: Headers; body: unknown }): void {
  expect(res.status).toBe(401);
  expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  // Nothing executed: no data, only the UNAUTHORIZED error.
  expect(JSON.stringify(res.body)).not.toContain('queryType');
}

describe('no anonymous GraphQL (issue #9 item 1)', () => {
  it('refuses a GET whose query hides past the query parser’s 1,000-parameter cap', async () => {
    const padding = Array.from({ length: 1100 }, (_, i) => `p${i}=1`).join('&');
    const res = await app.request('GET', `/graphql?${padding}&query=${INTROSPECTION}`, {
      headers: { accept: MIXED_ACCEPT },
    });
    expectRefused(res);
  });

  it('refuses a GET carrying only a persisted-query `extensions` parameter', async () => {
    const extensions = encodeURIComponent(
      JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } }),
    );
    const res = await app.request('GET', `/graphql?extensions=${extensions}`, {
      headers: { accept: MIXED_ACCEPT },
    });
    expectRefused(res);
  });

  it('refuses a POST without credentials', async () => {
    expectRefused(await app.graphql(undefined, '{ __schema { queryType { name } } }'));
  });

  it('still shows the IDE to a browser that prefers HTML, and never executes for it', async () => {
    const res = await app.request<string>('GET', `/graphql?query=${INTROSPECTION}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.body).toContain('<html');
    expect(res.body).not.toContain('queryType');
  });

  it('does not run automatic persisted queries, even with a key', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await app.request<{
      data?: unknown;
      errors?: Array<{ extensions: { details?: { reason?: string } } }>;
    }>('POST', '/graphql', {
      key: org.keys.read,
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: 'b'.repeat(64) } } },
    });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0].extensions.details?.reason).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
  });
});
