/**
 * /graphql's Express handler (src/http/graphql-middleware.ts, issue #31): Apollo's executeHTTPGraphQLRequest with
 * the query string found without url.parse and the answer written with its length, as the express5 integration did.
 */
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
beforeAll(async () => {
  app = await sharedApp();
  org = await createOrganizationWithKeys(app);
});
afterAll(() => app?.stop());

const QUERY = 'query Which { __typename }';

it('answers a POST with its JSON and its exact length', async () => {
  const res = await app.request<{ data: { __typename: string } }>('POST', '/graphql', {
    key: org.keys.read,
    body: { query: QUERY, variables: {} },
  });
  expect(res.status).toBe(200);
  expect(res.body.data.__typename).toBe('Query');
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(res.body)) + 1);
});

it('reads a GET query and its variables from the query string', async () => {
  const search = new URLSearchParams({ query: QUERY, variables: JSON.stringify({}) });
  const res = await app.request<{ data: { __typename: string } }>('GET', `/graphql?${search.toString()}`, {
    key: org.keys.read,
    headers: { 'apollo-require-preflight': 'true' },
  });
  expect(res.status).toBe(200);
  expect(res.body.data.__typename).toBe('Query');
});

it('refuses a GET whose variables are not JSON as the client’s mistake', async () => {
  const res = await app.request<{ errors: Array<{ message: string }> }>(
    'GET',
    `/graphql?query=${encodeURIComponent(QUERY)}&variables=%7Bnot-json`,
    { key: org.keys.read, headers: { 'apollo-require-preflight': 'true' } },
  );
  expect(res.status).toBe(400);
  expect(res.body.errors[0].message).toMatch(/variables/i);
});
