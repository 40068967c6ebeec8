import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createTenant, createUser } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Tenant-scoped /api routes select their tenant with X-Tenant-Id or ?tenantId= (DECISIONS "Identity and
 * tenancy"), declared once per route (`tenant: '<variable>'`) and handled by the generic REST handler.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let deleted: User;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  deleted = await createUser(app, tenant);
  const res = await app.request('DELETE', `/v1/tenants/${tenant.id}/users/${deleted.id}`, {
    key: org.keys.admin,
  });
  expect(res.status).toBe(200);
});
afterAll(() => app.stop());

/** The tenant-scoped routes, `:id` standing for the deleted user. */
const ROUTES: Array<[method: string, path: string]> = [
  ['GET', '/api/identity/users/deleted'],
  ['POST', '/api/identity/users/:id/restore'],
  ['DELETE', '/api/identity/users/:id/permanent'],
];
const at = (path: string) => path.replace(':id', deleted.id);

const fieldsOf = (body: Envelope) =>
  (body.error?.details.fields as Array<{ field: string; problem: string }> | undefined) ?? [];

async function deletedAt(): Promise<Date | null> {
  const { rows } = await app.pool.query<{ deleted_at: Date | null }>(
    'select deleted_at from users where id = $1',
    [deleted.id],
  );
  return rows[0]?.deleted_at ?? null;
}

describe('X-Tenant-Id', () => {
  it.each(ROUTES)('%s %s without it: 400 naming X-Tenant-Id, nothing changed', async (method, path) => {
    const before = await deletedAt();
    for (const headers of [{}, { 'X-Tenant-Id': '' }, { 'X-Tenant-Id': '   ' }] as Array<
      Record<string, string>
    >) {
      const res = await app.request<Envelope>(method, at(path), { key: org.keys.admin, headers });
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      expect(fieldsOf(res.body)).toEqual([
        { field: 'X-Tenant-Id', problem: expect.stringMatching(/required.*tenantId/) },
      ]);
    }
    expect(await deletedAt()).toEqual(before);
    expect(before).not.toBeNull();
  });

  it.each(ROUTES)('%s %s with a tenant id that is not a UUID: 404', async (method, path) => {
    const res = await app.request<Envelope>(method, at(path), {
      key: org.keys.admin,
      headers: { 'X-Tenant-Id': 'acme' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Tenant', id: 'acme' } });
  });

  it.each(ROUTES)('%s %s with another organization’s tenant: 404', async (method, path) => {
    const res = await app.request<Envelope>(method, at(path), {
      key: other.keys.admin,
      headers: { 'X-Tenant-Id': tenant.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.error?.code).toBe('NOT_FOUND');
    expect(await deletedAt()).not.toBeNull();
  });

  it('names every problem at once: the missing tenant and a bad body field', async () => {
    const res = await app.request<Envelope>('POST', `/api/identity/users/${deleted.id}/restore`, {
      key: org.keys.write,
      body: { userPrincipalName: 7 },
    });
    expect(res.status).toBe(400);
    expect(
      fieldsOf(res.body)
        .map((f) => f.field)
        .sort(),
    ).toEqual(['X-Tenant-Id', 'userPrincipalName']);
  });

  it('may be given as the query parameter tenantId instead, also under /v1/api', async () => {
    for (const prefix of ['/api', '/v1/api']) {
      const res = await app.request<Envelope<Array<{ id: string }>>>(
        'GET',
        `${prefix}/identity/users/deleted?tenantId=${tenant.id}`,
        { key: org.keys.read },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.map((user) => user.id)).toEqual([deleted.id]);
    }
  });

  it('refuses two different tenants (header and query, the header or the parameter twice) with 400', async () => {
    const theirs = await createTenant(app, org.scope);
    const both = await app.request<Envelope>('GET', `/api/identity/users/deleted?tenantId=${theirs.id}`, {
      key: org.keys.read,
      headers: { 'X-Tenant-Id': tenant.id },
    });
    expect(both.status).toBe(400);
    expect(fieldsOf(both.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
    const twice = await app.request<Envelope>(
      'GET',
      `/api/identity/users/deleted?tenantId=${tenant.id}&tenantId=${theirs.id}`,
      { key: org.keys.read },
    );
    expect(twice.status).toBe(400);
    // The header repeated reaches the server joined with ", " (as Node joins repeated headers).
    const headerTwice = await app.request<Envelope>('GET', '/api/identity/users/deleted', {
      key: org.keys.read,
      headers: { 'X-Tenant-Id': `${tenant.id}, ${theirs.id}` },
    });
    expect(headerTwice.status).toBe(400);
    expect(fieldsOf(headerTwice.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
    const sameTwice = await app.request<Envelope>('GET', '/api/identity/users/deleted', {
      key: org.keys.read,
      headers: { 'X-Tenant-Id': `${tenant.id}, ${tenant.id}` },
    });
    expect(sameTwice.status).toBe(200);
    // The same tenant both ways is fine (case does not matter in a UUID).
    const same = await app.request<Envelope>(
      'GET',
      `/api/identity/users/deleted?tenantId=${tenant.id.toUpperCase()}`,
      { key: org.keys.read, headers: { 'X-Tenant-Id': tenant.id } },
    );
    expect(same.status).toBe(200);
  });

  it('comes after authentication: no credentials is 401 whatever the tenant', async () => {
    const res = await app.request<Envelope>('GET', '/api/identity/users/deleted');
    expect(res.status).toBe(401);
  });
});

describe('a route that declares `tenant`', () => {
  it('must map it to a declared, non-null variable (checked when the route table compiles)', async () => {
    // compileRoute on the server's schema (onServer): its error's message, null when it compiles.
    const route = {
      method: 'GET' as const,
      path: '/identity/users/deleted',
      summary: 'test',
    };
    const compileError = (operation: string, tenant: string) =>
      onServer(app, 'routeCompileError', { ...route, operation, tenant });
    // The route's own document (src/users/deleted-user.rest.ts's LIST_DELETED_USERS), as the server has it.
    const listed = (await onServer(app, 'compiledRoutes')).find(
      ({ prefix, definition }) =>
        prefix === '/api' && definition.method === 'GET' && definition.path === route.path,
    );
    const LIST_DELETED_USERS = listed?.definition.operation ?? '';
    expect(LIST_DELETED_USERS).toContain('$tenantId: UUID!');
    expect(await compileError(LIST_DELETED_USERS, 'tenantId')).toBeNull();
    expect(await compileError(LIST_DELETED_USERS, 'nope')).toMatch(/does not declare/);
    // Valid GraphQL (a nullable variable with a default may fill a non-null argument), but not a tenant.
    const nullable = LIST_DELETED_USERS.replace(
      '$tenantId: UUID!',
      '$tenantId: UUID = "00000000-0000-4000-8000-000000000000"',
    );
    expect(await compileError(nullable, 'tenantId')).toMatch(/must be non-null/);
  });
});
