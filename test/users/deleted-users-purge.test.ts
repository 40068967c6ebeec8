import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { Permission } from '../../src/core/permissions.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createSku, createTenant, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { DAY, listDeleted, purge, restore, rowExists, softDelete } from './deleted-user-kit.js';
import { cloudObjects, eventsAbout, userRow } from './user-test-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

async function inCloud(externalId: string, target = tenant): Promise<boolean> {
  const users = await cloudObjects(app, target.externalId, 'user');
  return users.some((user) => user.externalId === externalId);
}

describe('DELETE /api/identity/users/:id/permanent', () => {
  it('removes a deleted user for good (row, dependants, cloud object) and emits user.purged', async () => {
    const user = await createUser(app, tenant);
    const report = await createUser(app, tenant, { managerId: user.id });
    const sku = await createSku(app, tenant, { total: 2 });
    await giveLicense(app, tenant, user, sku);
    const deleted = await softDelete(app, org.keys.admin, tenant, user);
    app.clock.advance(DAY);

    const res = await purge(app, org.keys.admin, tenant.id, user.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: user.id,
      tenantId: tenant.id,
      displayName: user.displayName,
      userPrincipalName: user.userPrincipalName,
      deletedAt: deleted.deletedAt,
      purgedAt: app.clock.now().toISOString(),
    });
    expect(await rowExists(app, user.id)).toBe(false);
    expect((await userRow(app, report.id)).manager_id).toBeNull(); // nobody is managed by a purged user
    expect(await inCloud(user.externalId)).toBe(false);

    const events = await eventsAbout(app, user.id);
    expect(events.map((e) => e.kind)).toEqual(['user.deleted', 'user.purged']);
    expect(events[1].payload).toMatchObject({
      event: 'user.purged',
      severity: 'informational',
      tenant: { id: tenant.id, name: tenant.name, domain: tenant.domain },
      details: {
        userId: user.id,
        userPrincipalName: user.userPrincipalName,
        deletedAt: deleted.deletedAt,
        automatic: false,
        purgedBy: expect.stringMatching(/^api_key:/),
      },
      actionUrl: `http://app.test/tenants/${tenant.id}/users/deleted`,
    });

    // Irreversible: neither restore nor a second purge finds it.
    expect((await purge(app, org.keys.admin, tenant.id, user.id)).status).toBe(404);
    const restored = await app.request('POST', `/api/identity/users/${user.id}/restore`, {
      key: org.keys.admin,
      headers: { 'X-Tenant-Id': tenant.id },
    });
    expect(restored.status).toBe(404);
  });

  it('needs an Admin key (Write → 403), and changes nothing', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    for (const key of [org.keys.write, org.keys.read]) {
      const res = await purge(app, key, tenant.id, user.id);
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe('FORBIDDEN');
    }
    expect(await rowExists(app, user.id)).toBe(true);
    expect(await inCloud(user.externalId)).toBe(true);
  });

  it('access tokens: read:users lists, write:users restores and permanently deletes (DECISIONS scopes)', async () => {
    const registered = await createOAuthClient(app, org.scope);
    const member = await createMember(app, org.organization.id);
    const [readUsers, writeUsers, readTenants] = await Promise.all(
      [Permission.READ_USERS, Permission.WRITE_USERS, Permission.READ_TENANTS].map((scope) =>
        issueAccessToken(app, registered, member, [scope]),
      ),
    );
    const kept = await createUser(app, tenant);
    const purged = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, kept);
    await softDelete(app, org.keys.admin, tenant, purged);

    expect((await listDeleted(app, readUsers, tenant.id)).status).toBe(200);
    expect((await listDeleted(app, readTenants, tenant.id)).body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { required: 'read:users' },
    });
    expect((await restore(app, readUsers, tenant.id, kept.id)).status).toBe(403);
    expect((await purge(app, readUsers, tenant.id, purged.id)).status).toBe(403);
    expect((await restore(app, writeUsers, tenant.id, kept.id)).status).toBe(200);
    expect((await purge(app, writeUsers, tenant.id, purged.id)).status).toBe(200);
    expect(await rowExists(app, purged.id)).toBe(false);
  });

  it('refuses an active user with 409, and changes nothing', async () => {
    const user = await createUser(app, tenant);
    const res = await purge(app, org.keys.admin, tenant.id, user.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { from: 'active', to: 'permanently deleted', allowed: ['soft-deleted'] },
    });
    expect((await userRow(app, user.id)).deleted_at).toBeNull();
    expect(await inCloud(user.externalId)).toBe(true);
    expect(await eventsAbout(app, user.id)).toEqual([]);
  });

  it('refuses with 409 a user restored upstream since, and keeps our row', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    await simulatedCloud(app).restoreUser(tenant.externalId, user.externalId, {
      userPrincipalName: user.userPrincipalName,
      accountEnabled: true,
    });
    const res = await purge(app, org.keys.admin, tenant.id, user.id);
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toMatchObject({ upstream: 'active' });
    expect(await rowExists(app, user.id)).toBe(true);
  });

  it('hides other organizations’ users and tenants (404)', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const theirs = await createTenant(app, other.scope);
    for (const [tenantId, userId] of [
      [theirs.id, user.id],
      [tenant.id, user.id],
    ]) {
      const res = await purge(app, other.keys.admin, tenantId, userId);
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
    expect(await rowExists(app, user.id)).toBe(true);
  });

  it('GraphQL permanentlyDeleteUser: FORBIDDEN for a Write key, then purged with an Admin key', async () => {
    const PURGE = `mutation($t: UUID!, $id: UUID!) {
      permanentlyDeleteUser(tenantId: $t, id: $id) { id purgedAt }
    }`;
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const write = await app.graphql(org.keys.write, PURGE, { t: tenant.id, id: user.id });
    expect(write.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const res = await app.graphql<{ permanentlyDeleteUser: unknown }>(org.keys.admin, PURGE, {
      t: tenant.id,
      id: user.id,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.permanentlyDeleteUser).toEqual({
      id: user.id,
      purgedAt: app.clock.now().toISOString(),
    });
    expect(await rowExists(app, user.id)).toBe(false);
  });
});
