import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import { TestApp } from '../helpers/test-app.js';

let app: TestApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  app = await TestApp.start();
  org = await createOrganizationWithKeys(app);
});
afterAll(() => app.stop());

/** The client's mistakes graphql-js answers itself, answered 400 by the graphql-jit executor too (not a 500). */
describe('GraphQL operations the executor refuses', () => {
  it('an operationName the document does not define is 400 naming it', async () => {
    const res = await app.request<{ errors?: Array<{ message: string }> }>('POST', '/graphql', {
      key: org.keys.read,
      body: { query: 'query Live { tenants(limit: 1) { items { id } } }', operationName: 'Tenants' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toContain('Unknown operation named "Tenants"');
  });
});
