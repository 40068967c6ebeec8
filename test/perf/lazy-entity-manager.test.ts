import { LIST_USERS } from '../../src/users/user.rest.js';
import { createLicenseUser, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';

/**
 * A request forks MikroORM's EntityManager (identity map, unit of work) only when something uses `ctx.em`
 * (src/context.ts, issue #31): the users list reads through lean reads, which take the root's connection, and
 * forks nothing; a write still gets its own fork.
 */
// The worker's shared server (no job runner: only this file's requests fork); the forks are counted on it.
let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  for (let i = 0; i < 3; i++) await createLicenseUser(app, tenant);
  // The key's first use reads it (src/api-keys): cached from here on, as in a running server.
  await app.request('GET', `/v1/tenants/${tenant.id}/users?limit=1`, { key: org.keys.admin });
}, 60_000);
afterAll(() => app.stop());

function countForks(): Promise<{ count: () => number; restore: () => void }> {
  return onServer(app, 'countOrmForks');
}

it('reads the users list over REST and GraphQL without forking an EntityManager', async () => {
  const forks = await countForks();
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
  const forks = await countForks();
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
