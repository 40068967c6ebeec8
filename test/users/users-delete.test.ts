import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createSku, cloudUserOf, createGroup, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { cloudObjects, eventsAbout, userRow, type Envelope, type UserBody } from './user-test-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

function deleteUser(userId: string, key = org.keys.admin) {
  return app.request<Envelope<UserBody>>('DELETE', `/v1/tenants/${tenant.id}/users/${userId}`, { key });
}

async function scalar(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(sql, params);
  return Number(rows[0].n);
}

describe('DELETE /v1/tenants/:id/users/:userId', () => {
  it('soft-deletes with every effect of SPEC 3.4 and answers 200 with the deleted user', async () => {
    const manager = await createUser(app, tenant);
    const user = await createUser(app, tenant, { managerId: manager.id, jobTitle: 'Analyst' });
    const colleague = await createUser(app, tenant);
    const e3 = await createSku(app, tenant, { total: 10 });
    const visio = await createSku(app, tenant, { total: 3 });
    await giveLicense(app, tenant, user, e3);
    await giveLicense(app, tenant, user, visio);
    await giveLicense(app, tenant, colleague, e3);
    const team = await createGroup(app, tenant, { members: [user, colleague] });
    await createGroup(app, tenant, { members: [user] });
    app.clock.advance(3_600_000);

    const res = await deleteUser(user.id);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const now = app.clock.now().toISOString();
    expect(res.body.data).toMatchObject({
      id: user.id,
      userPrincipalName: user.userPrincipalName,
      jobTitle: 'Analyst',
      accountStatus: 'Disabled',
      managerId: null,
      licenses: [],
      deletedAt: now,
      deletedBy: apiKeyActor('Admin key'),
    });

    // The row stays (recycle bin) with its profile and externalId.
    const row = await userRow(app, user.id);
    expect(row).toMatchObject({
      account_status: 'Disabled',
      manager_id: null,
      job_title: 'Analyst',
      external_id: user.externalId,
      deleted_by: expect.stringMatching(/^api_key:/),
    });
    expect(row.deleted_at?.toISOString()).toBe(now);
    expect(row.sessions_revoked_at?.toISOString()).toBe(now);

    expect(await scalar('select count(*) as n from group_memberships where user_id = $1', [user.id])).toBe(0);
    expect(await scalar('select count(*) as n from group_memberships where group_id = $1', [team.id])).toBe(
      1,
    );
    expect(await scalar('select count(*) as n from license_assignments where user_id = $1', [user.id])).toBe(
      0,
    );
    expect(await scalar('select consumed as n from tenant_licenses where id = $1', [e3.id])).toBe(1);
    expect(await scalar('select consumed as n from tenant_licenses where id = $1', [visio.id])).toBe(0);

    // The simulated cloud did the same.
    const cloud = await cloudUserOf(app, tenant, user.externalId);
    expect(cloud).toMatchObject({ accountEnabled: false, managerExternalId: null, deletedAt: now });
    const cloudAssignments = await cloudObjects(app, tenant.externalId, 'assignment');
    expect(cloudAssignments.filter((a) => a.userExternalId === user.externalId)).toEqual([]);

    const events = await eventsAbout(app, user.id);
    expect(events.map((e) => e.kind)).toEqual(['user.deleted']);
    expect(events[0].payload).toMatchObject({
      severity: 'informational',
      tenant: { id: tenant.id, name: tenant.name, domain: tenant.domain },
      details: {
        userId: user.id,
        userPrincipalName: user.userPrincipalName,
        licensesReturned: [e3.skuId, visio.skuId].sort(),
        groupsLeft: 2,
      },
      actionUrl: `http://app.test/tenants/${tenant.id}/users/${user.id}`,
    });

    // Gone from reads (404 on GET, absent from the list); a second DELETE is a refused move (409).
    const get = await app.request('GET', `/v1/tenants/${tenant.id}/users/${user.id}`, { key: org.keys.read });
    expect(get.status).toBe(404);
    expect((await deleteUser(user.id)).status).toBe(409);
    const list = await app.request<Envelope<UserBody[]>>('GET', `/v1/tenants/${tenant.id}/users?limit=100`, {
      key: org.keys.read,
    });
    expect(list.body.data.map((u) => u.id)).not.toContain(user.id);
    expect(list.body.data.map((u) => u.id)).toEqual(expect.arrayContaining([manager.id, colleague.id]));
  });

  it('frees the UPN for a new user', async () => {
    const user = await createUser(app, tenant, { userPrincipalName: `reuse@${tenant.domain}` });
    expect((await deleteUser(user.id)).status).toBe(200);
    const again = await app.request('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: { firstName: 'Re', lastName: 'Use', userPrincipalName: `reuse@${tenant.domain}` },
    });
    expect(again.status).toBe(201);
  });

  it('returns each seat once when two deletes of the same user race', async () => {
    const user = await createUser(app, tenant);
    const sku = await createSku(app, tenant, { total: 5 });
    await giveLicense(app, tenant, user, sku);
    const [a, b] = await Promise.all([deleteUser(user.id), deleteUser(user.id)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await scalar('select consumed as n from tenant_licenses where id = $1', [sku.id])).toBe(0);
    expect((await eventsAbout(app, user.id)).filter((e) => e.kind === 'user.deleted')).toHaveLength(1);
  });

  it('needs an Admin key (Write → 403) and hides other organizations (404)', async () => {
    const user = await createUser(app, tenant);
    const write = await deleteUser(user.id, org.keys.write);
    expect(write.status).toBe(403);
    expect(write.body.error?.code).toBe('FORBIDDEN');
    const foreign = await deleteUser(user.id, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.code).toBe('NOT_FOUND');
    expect((await userRow(app, user.id)).deleted_at).toBeNull();
  });
});

describe('GraphQL deleteUser', () => {
  const DELETE = `mutation($t: UUID!, $id: UUID!) {
    deleteUser(tenantId: $t, id: $id) { id accountStatus deletedAt licenses }
  }`;

  it('soft-deletes with UPPER_SNAKE enums', async () => {
    const user = await createUser(app, tenant);
    const res = await app.graphql<{ deleteUser: Record<string, unknown> }>(org.keys.admin, DELETE, {
      t: tenant.id,
      id: user.id,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.deleteUser).toEqual({
      id: user.id,
      accountStatus: 'DISABLED',
      deletedAt: app.clock.now().toISOString(),
      licenses: [],
    });
  });

  it('gives FORBIDDEN to a Write key and NOT_FOUND to another organization', async () => {
    const user = await createUser(app, tenant);
    const write = await app.graphql(org.keys.write, DELETE, { t: tenant.id, id: user.id });
    expect(write.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const foreign = await app.graphql(other.keys.admin, DELETE, { t: tenant.id, id: user.id });
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
