import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { DAY, purge, softDelete } from '../users/deleted-user-kit.js';
import type { ItemOf } from '../helpers/api-types.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

type FileBody = ItemOf<'deletedUserFiles'>;

function files(userId: string, query = '', key = org.keys.read, tenantId: string | null = tenant.id) {
  return app.request<Envelope<FileBody[]>>('GET', `/api/identity/users/${userId}/onedrive${query}`, {
    key,
    headers: tenantId ? { 'X-Tenant-Id': tenantId } : {},
  });
}

describe('GET /api/identity/users/:id/onedrive', () => {
  it('lists a deleted user’s files within the window (paged), 404 after it (clock moved) and after a purge', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const all = await files(user.id, '?limit=100');
    expect(all.status).toBe(200);
    const total = all.body.meta!.total;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(all.body.data[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      path: expect.stringMatching(/^\//),
      sizeBytes: expect.any(Number),
      modifiedAt: expect.any(String),
    });
    const page2 = await files(user.id, '?limit=2&page=2');
    expect(page2.body.data).toEqual(all.body.data.slice(2, 4));

    app.clock.advance(29 * DAY);
    expect((await files(user.id)).status).toBe(200);
    app.clock.advance(1 * DAY);
    expect((await files(user.id)).status).toBe(404);
    app.clock.advance(-30 * DAY);

    const purged = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, purged);
    expect((await purge(app, org.keys.admin, tenant.id, purged.id)).status).toBe(200);
    expect((await files(purged.id)).status).toBe(404);
  });

  it('409 for an active user; 404 across organizations; X-Tenant-Id required', async () => {
    const user = await createUser(app, tenant);
    const active = await files(user.id);
    expect(active.status).toBe(409);
    await softDelete(app, org.keys.admin, tenant, user);
    expect((await files(user.id, '', other.keys.admin)).status).toBe(404);
    expect((await files(user.id, '', org.keys.read, null)).status).toBe(400);
  });

  it('grants an active user access (POST extension, write:users) and GraphQL reads the same files', async () => {
    const user = await createUser(app, tenant);
    const colleague = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const grant = await app.request<Envelope<{ grantedTo: string; availableUntil: string }>>(
      'POST',
      `/api/identity/users/${user.id}/onedrive/access`,
      { key: org.keys.write, headers: { 'X-Tenant-Id': tenant.id }, body: { userId: colleague.id } },
    );
    expect(grant.status).toBe(200);
    expect(grant.body.data.grantedTo).toBe(colleague.id);
    const grants = await (app.deps.clouds as SimulatedCloud).userManagement.driveGrants(
      tenant.externalId,
      user.externalId,
    );
    expect(grants).toEqual([expect.objectContaining({ granteeExternalId: colleague.externalId })]);
    const bad = await app.request<Envelope>('POST', `/api/identity/users/${user.id}/onedrive/access`, {
      key: org.keys.write,
      headers: { 'X-Tenant-Id': tenant.id },
      body: { userId: user.id },
    });
    expect(bad.status).toBe(400);
    const read = await app.request('POST', `/api/identity/users/${user.id}/onedrive/access`, {
      key: org.keys.read,
      headers: { 'X-Tenant-Id': tenant.id },
      body: { userId: colleague.id },
    });
    expect(read.status).toBe(403);
    const gql = await app.graphql<{ deletedUserFiles: { pageInfo: { total: number } } }>(
      org.keys.read,
      `query($t: UUID!, $id: UUID!) { deletedUserFiles(tenantId: $t, id: $id) { pageInfo { total } } }`,
      { t: tenant.id, id: user.id },
    );
    expect(gql.body.data?.deletedUserFiles.pageInfo.total).toBeGreaterThanOrEqual(3);
  });
});
