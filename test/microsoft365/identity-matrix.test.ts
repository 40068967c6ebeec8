import type { Envelope } from '../helpers/envelope.js';
import { userRow, type UserBody } from '../users/user-test-kit.js';
import {
  startEnvironmentMatrix,
  type EnvironmentMatrix,
  type MatrixEnvironment,
} from './environment-matrix.js';

/**
 * One identity lifecycle, the same requests (REST and GraphQL) in both environments: the sandbox acts on the
 * simulated cloud and makes no Graph request; the live environment makes exactly the Graph requests listed.
 * Every change is checked in the environment's cloud, and a sync afterwards finds nothing to change.
 */
let matrix: EnvironmentMatrix;
beforeAll(async () => {
  matrix = await startEnvironmentMatrix();
}, 120_000);
afterAll(() => matrix?.stop());

const PASSWORD = 'Correct-Horse-Battery-9';
const USER_FIELDS = 'id userPrincipalName jobTitle accountStatus';

describe.each(['sandbox', 'live'] as const)('identity in the %s environment', (name) => {
  let env: MatrixEnvironment;
  const ids: Record<string, { id: string; externalId: string }> = {};
  beforeAll(() => {
    env = matrix.environments.find((candidate) => candidate.name === name)!;
  });
  beforeEach(() => env.clear());

  /** The Graph requests of the live environment; none in the sandbox. */
  const expectCloudCalls = (externalId: string, live: Array<string | RegExp>) => {
    const calls = env.graphCalls(externalId);
    if (env.name === 'sandbox') return expect(calls).toEqual([]);
    expect(calls).toHaveLength(live.length);
    live.forEach((wanted, index) =>
      typeof wanted === 'string' ? expect(calls[index]).toBe(wanted) : expect(calls[index]).toMatch(wanted),
    );
  };
  const request = <T>(method: string, path: string, body?: unknown, tenantHeader = false) =>
    matrix.app.request<Envelope<T>>(method, path, {
      key: env.key,
      body,
      headers: tenantHeader ? { 'X-Tenant-Id': env.tenantId } : {},
    });
  const remember = async (label: string, id: string) => {
    ids[label] = { id, externalId: (await userRow(matrix.app, id)).external_id };
    return ids[label];
  };

  it('lists the synced users over REST and GraphQL, without asking the cloud', async () => {
    const rest = await request<UserBody[]>('GET', `/v1/tenants/${env.tenantId}/users?limit=100`);
    const graphql = await matrix.app.graphql<{ users: { items: UserBody[] } }>(
      env.key,
      `query($tenantId: UUID!) { users(tenantId: $tenantId, limit: 100) { items { ${USER_FIELDS} } } }`,
      { tenantId: env.tenantId },
    );
    expect(rest.status).toBe(200);
    expect(rest.body.data.length).toBeGreaterThanOrEqual(5);
    expect(graphql.body.data!.users.items.map((user) => user.id).sort()).toEqual(
      rest.body.data.map((user) => user.id).sort(),
    );
    expect(env.graphCalls()).toEqual([]);
  });

  it('creates a user over REST and one over GraphQL, in the cloud', async () => {
    const rest = await request<UserBody>('POST', `/v1/tenants/${env.tenantId}/users`, {
      firstName: 'Rest',
      lastName: 'Created',
      userPrincipalName: `rest.created@${env.domain}`,
      password: PASSWORD,
      usageLocation: 'US',
    });
    expect(rest.status).toBe(201);
    const restUser = await remember('rest', rest.body.data.id);
    expectCloudCalls(restUser.externalId, ['POST /v1.0/users']);

    env.clear();
    const graphql = await matrix.app.graphql<{ createUser: UserBody }>(
      env.key,
      `mutation($tenantId: UUID!, $input: CreateUserInput!) { createUser(tenantId: $tenantId, input: $input) { ${USER_FIELDS} } }`,
      {
        tenantId: env.tenantId,
        input: {
          firstName: 'Graph',
          lastName: 'Created',
          userPrincipalName: `graph.created@${env.domain}`,
          password: PASSWORD,
          jobTitle: 'Analyst',
        },
      },
    );
    expect(graphql.body.errors).toBeUndefined();
    const graphUser = await remember('graphql', graphql.body.data!.createUser.id);
    expectCloudCalls(graphUser.externalId, ['POST /v1.0/users']);
    expect(await env.upstream(restUser.externalId)).toMatchObject({
      userPrincipalName: `rest.created@${env.domain}`,
      deleted: false,
    });
    expect(await env.upstream(graphUser.externalId)).toMatchObject({ jobTitle: 'Analyst', deleted: false });
  });

  it('updates a user over REST', async () => {
    const { id, externalId } = ids.rest;
    const res = await request<UserBody>('PATCH', `/v1/tenants/${env.tenantId}/users/${id}`, {
      jobTitle: 'Lead',
      accountStatus: 'Disabled',
    });
    expect(res.status).toBe(200);
    expectCloudCalls(externalId, ['PATCH /v1.0/users/{id}']);
    expect(await env.upstream(externalId)).toMatchObject({ jobTitle: 'Lead', accountEnabled: false });
  });

  it('soft-deletes over GraphQL, lists it among the deleted users, restores it over REST', async () => {
    const { id, externalId } = ids.rest;
    const deleted = await matrix.app.graphql(
      env.key,
      'mutation($tenantId: UUID!, $id: UUID!) { deleteUser(tenantId: $tenantId, id: $id) { id } }',
      { tenantId: env.tenantId, id },
    );
    expect(deleted.body.errors).toBeUndefined();
    expectCloudCalls(externalId, ['DELETE /v1.0/users/{id}']);
    expect(await env.upstream(externalId)).toMatchObject({ deleted: true });

    env.clear();
    const listed = await request<Array<{ id: string }>>(
      'GET',
      '/api/identity/users/deleted',
      undefined,
      true,
    );
    expect(listed.body.data.map((user) => user.id)).toContain(id);
    expect(env.graphCalls()).toEqual([]);

    const restored = await request<UserBody>('POST', `/api/identity/users/${id}/restore`, undefined, true);
    expect(restored.status).toBe(200);
    expectCloudCalls(externalId, [
      'POST /v1.0/directory/deletedItems/{id}/restore',
      'PATCH /v1.0/users/{id}',
      /^GET \/v1\.0\/users\/\{id\}\?\$select=/,
    ]);
    expect(await env.upstream(externalId)).toMatchObject({ deleted: false });
  });

  it('purges a deleted user over REST: gone from the cloud', async () => {
    const { id, externalId } = ids.graphql;
    expect((await request('DELETE', `/v1/tenants/${env.tenantId}/users/${id}`)).status).toBe(200);
    env.clear();
    const purged = await request('DELETE', `/api/identity/users/${id}/permanent`, undefined, true);
    expect(purged.status).toBe(200);
    expectCloudCalls(externalId, ['DELETE /v1.0/directory/deletedItems/{id}']);
    expect(await env.upstream(externalId)).toBeNull();
  });

  it('invites a guest over REST and lists it over GraphQL', async () => {
    const invited = await request<{ id: string; userPrincipalName: string }>(
      'POST',
      '/api/identity/users/invite',
      { email: `guest.${name}@partner.example.org`, displayName: 'Partner Guest' },
      true,
    );
    expect(invited.status).toBe(201);
    const guest = await remember('guest', invited.body.data.id);
    expectCloudCalls(guest.externalId, [
      'POST /v1.0/invitations',
      'PATCH /v1.0/users/{id}',
      /^GET \/v1\.0\/users\/\{id\}\?\$select=/,
    ]);
    expect(await env.upstream(guest.externalId)).toMatchObject({ userType: 'Guest', deleted: false });
    const listed = await matrix.app.graphql<{ guestUsers: { items: Array<{ id: string }> } }>(
      env.key,
      'query($tenantId: UUID!) { guestUsers(tenantId: $tenantId, type: GUEST) { items { id } } }',
      { tenantId: env.tenantId },
    );
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data!.guestUsers.items.map((item) => item.id)).toContain(guest.id);
  });

  it('a sync afterwards finds the cloud as the changes left it', async () => {
    const sync = await env.sync();
    expect(sync).toMatchObject({ status: 'Completed', error: null });
    expect(sync.summary).toMatchObject({
      usersCreated: 0,
      usersUpdated: 0,
      usersDeleted: 0,
      usersRestored: 0,
    });
  });
});
