import { jest } from '@jest/globals';
import { LIST_USERS } from '../../src/users/user.rest.js';
import { createLicenseUser } from '../factories/licenses.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';

/**
 * A request forks MikroORM's EntityManager (identity map, unit of work) only when something uses `ctx.em`
 * (src/context.ts, issue #31): the users list reads through lean reads, which take the root's connection, and
 * forks nothing; a write still gets its own fork.
 */
let app: TestApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, tenant } = await startSuite({ tenant: true }));
  for (let i = 0; i < 3; i++) await createLicenseUser(app, tenant);
  // The key's first use reads it (src/api-keys): cached from here on, as in a running server.
  await app.request('GET', `/v1/tenants/${tenant.id}/users?limit=1`, { key: org.keys.admin });
}, 60_000);
afterAll(() => app.stop());

function countForks(): { count: () => number; restore: () => void } {
  const fork = jest.spyOn(app.orm.em, 'fork');
  return { count: () => fork.mock.calls.length, restore: () => fork.mockRestore() };
}

it('reads the users list over REST and GraphQL without forking an EntityManager', async () => {
  const forks = countForks();
  try {
    const rest = await app.request<{ data: unknown[] }>('GET', `/v1/tenants/${tenant.id}/users?limit=25`, {
      key: org.keys.admin,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.data.length).toBeGreaterThanOrEqual(3);
    const graphql = await app.graphql<{ users: { items: unknown[] } }>(org.keys.admin, LIST_USERS, {
      tenantId: tenant.id,
      limit: 25,
    });
    expect(graphql.body.data?.users.items.length).toBeGreaterThanOrEqual(3);
    expect(forks.count()).toBe(0);
  } finally {
    forks.restore();
  }
});

it('forks one EntityManager for a request that uses it (a user read by id)', async () => {
  const [user] = (
    await app.request<{ data: Array<{ id: string }> }>('GET', `/v1/tenants/${tenant.id}/users?limit=1`, {
      key: org.keys.admin,
    })
  ).body.data;
  const forks = countForks();
  try {
    const res = await app.request('GET', `/v1/tenants/${tenant.id}/users/${user.id}`, {
      key: org.keys.admin,
    });
    expect(res.status).toBe(200);
    expect(forks.count()).toBe(1);
  } finally {
    forks.restore();
  }
});
