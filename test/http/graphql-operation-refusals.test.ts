import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
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

/** Where graphql-jit and graphql-js differ, clients get graphql-js's answer (the executor fills the gap). */
describe('GraphQL variables the executor completes', () => {
  it('uses the default of a non-null variable the request omits', async () => {
    for (let i = 0; i < 3; i++) await createTenant(app, org.scope);
    const res = await app.request<{ data?: { tenants: { items: unknown[] } }; errors?: unknown[] }>(
      'POST',
      '/graphql',
      {
        key: org.keys.read,
        body: { query: 'query($limit: Int! = 2) { tenants(limit: $limit) { items { id } } }', variables: {} },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.tenants.items).toHaveLength(2);
  });

  it('uses an enum default written in the document, and a value sent over it', async () => {
    const tenant = await createTenant(app, org.scope);
    const query = `query($type: IdentityUserListType! = GUEST) {
      guestUsers(tenantId: "${tenant.id}", type: $type) { pageInfo { total } }
    }`;
    for (const variables of [{}, { type: 'GUEST' }]) {
      const res = await app.request<{
        data?: { guestUsers: { pageInfo: { total: number } } };
        errors?: unknown[];
      }>('POST', '/graphql', { key: org.keys.read, body: { query, variables } });
      expect({ variables, errors: res.body.errors }).toEqual({ variables, errors: undefined });
      expect(res.body.data?.guestUsers.pageInfo.total).toBe(0);
    }
  });
});
