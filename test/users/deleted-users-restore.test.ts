import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import {
  createSku,
  createTenant,
  cloudUserOf,
  createGroup,
  createUser,
  giveLicense,
} from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { DAY, listDeleted, restore, scalar, softDelete } from './deleted-user-kit.js';
import { eventsAbout, userRow, type UserBody } from './user-test-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({
    other: true,
    tenant: { extraDomains: ['alias.example.org'] },
  }));
});
afterAll(() => app.stop());

const fieldsOf = (body: { error?: { details: Record<string, unknown> } }) =>
  (body.error?.details.fields as Array<{ field: string; problem: string }> | undefined)?.map((f) => f.field);

describe('POST /api/identity/users/:id/restore', () => {
  it('restores profile, UPN and account status within 30 days; not groups, licenses or manager', async () => {
    const manager = await createUser(app, tenant);
    const user = await createUser(app, tenant, { managerId: manager.id, jobTitle: 'Analyst' });
    const sku = await createSku(app, tenant, { total: 3 });
    await giveLicense(app, tenant, user, sku);
    await createGroup(app, tenant, { members: [user] });
    const deleted = await softDelete(app, org.keys.admin, tenant, user);
    app.clock.advance(29 * DAY);

    const res = await restore(app, org.keys.write, tenant.id, user.id);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      id: user.id,
      userPrincipalName: user.userPrincipalName,
      jobTitle: 'Analyst',
      accountStatus: 'Enabled',
      managerId: null,
      licenses: [],
    });

    const row = await userRow(app, user.id);
    expect(row).toMatchObject({ deleted_at: null, deleted_by: null, external_id: user.externalId });
    expect(
      await scalar(app, 'select count(*) as n from group_memberships where user_id = $1', [user.id]),
    ).toBe(0);
    expect(await scalar(app, 'select consumed as n from tenant_licenses where id = $1', [sku.id])).toBe(0);
    const cloud = await cloudUserOf(app, tenant, user.externalId);
    expect(cloud).toMatchObject({
      deletedAt: null,
      accountEnabled: true,
      userPrincipalName: user.userPrincipalName,
      managerExternalId: null,
    });

    const events = await eventsAbout(app, user.id);
    expect(events.map((e) => e.kind)).toEqual(['user.deleted', 'user.restored']);
    expect(events[1].payload).toMatchObject({
      event: 'user.restored',
      severity: 'informational',
      tenant: { id: tenant.id, name: tenant.name, domain: tenant.domain },
      details: {
        userId: user.id,
        userPrincipalName: user.userPrincipalName,
        deletedAt: deleted.deletedAt,
        accountStatus: 'Enabled',
        hadLicenses: true,
        notRestored: ['groupMemberships', 'licenses', 'manager'],
      },
      actionUrl: `http://app.test/tenants/${tenant.id}/users/${user.id}`,
    });
    expect(events[1].payload.details).not.toHaveProperty('previousUserPrincipalName');

    // Back in the users list, gone from the recycle bin.
    const get = await app.request('GET', `/v1/tenants/${tenant.id}/users/${user.id}`, { key: org.keys.read });
    expect(get.status).toBe(200);
    const bin = await listDeleted(app, org.keys.read, tenant.id);
    expect(bin.body.data.map((u) => u.id)).not.toContain(user.id);
  });

  it('gives a user disabled before its deletion back disabled', async () => {
    const user = await createUser(app, tenant, { accountStatus: AccountStatus.DISABLED });
    await softDelete(app, org.keys.admin, tenant, user);
    const res = await restore(app, org.keys.write, tenant.id, user.id, {});
    expect(res.status).toBe(200);
    expect(res.body.data.accountStatus).toBe('Disabled');
    expect((await cloudUserOf(app, tenant, user.externalId)).accountEnabled).toBe(false);
  });

  it('refuses after 30 days with 409, and changes nothing', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    app.clock.advance(30 * DAY);
    const res = await restore(app, org.keys.write, tenant.id, user.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/recovery window ended/),
      details: { from: 'soft-deleted', to: 'active', recoverableUntil: app.clock.now().toISOString() },
    });
    expect((await userRow(app, user.id)).deleted_at).not.toBeNull();
    expect((await cloudUserOf(app, tenant, user.externalId)).deletedAt).not.toBeNull();
    expect((await eventsAbout(app, user.id)).map((e) => e.kind)).toEqual(['user.deleted']);
  });

  it('refuses an active user with 409', async () => {
    const user = await createUser(app, tenant);
    const res = await restore(app, org.keys.write, tenant.id, user.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { from: 'active', to: 'active', allowed: ['soft-deleted'] },
    });
    expect(await eventsAbout(app, user.id)).toEqual([]);
  });

  it('needs a new UPN when its own was reused (409), then restores under the new one', async () => {
    const upn = `reused-${Date.now()}@${tenant.domain}`;
    const user = await createUser(app, tenant, { userPrincipalName: upn });
    await softDelete(app, org.keys.admin, tenant, user);
    const taker = await app.request<{ data: UserBody }>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: { firstName: 'New', lastName: 'Comer', userPrincipalName: upn },
    });
    expect(taker.status).toBe(201);

    const refused = await restore(app, org.keys.write, tenant.id, user.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toMatch(/taken by another user/);
    expect(fieldsOf(refused.body)).toEqual(['userPrincipalName']);
    expect((await userRow(app, user.id)).deleted_at).not.toBeNull();

    // A new UPN that is also taken: 409 again.
    const alsoTaken = await restore(app, org.keys.write, tenant.id, user.id, {
      userPrincipalName: upn.toUpperCase(),
    });
    expect(alsoTaken.status).toBe(409);

    const fresh = `Returned-${Date.now()}@alias.example.org`;
    const res = await restore(app, org.keys.write, tenant.id, user.id, { userPrincipalName: ` ${fresh} ` });
    expect(res.status).toBe(200);
    expect(res.body.data.userPrincipalName).toBe(fresh.toLowerCase());
    expect((await cloudUserOf(app, tenant, user.externalId)).userPrincipalName).toBe(fresh.toLowerCase());
    const [, restored] = await eventsAbout(app, user.id);
    expect(restored.payload.details).toMatchObject({
      userPrincipalName: fresh.toLowerCase(),
      previousUserPrincipalName: upn,
    });
  });

  it('answers bad input with 400 naming the field, and changes nothing', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const cases: Array<[unknown, string]> = [
      [{ userPrincipalName: 'not-an-address' }, 'userPrincipalName'],
      [{ userPrincipalName: `someone@elsewhere.example.net` }, 'userPrincipalName'],
      [{ userPrincipalName: `${'x'.repeat(65)}@${tenant.domain}` }, 'userPrincipalName'],
      [{ userPrincipalName: 42 }, 'userPrincipalName'],
      [{ displayName: 'Not accepted' }, 'displayName'],
    ];
    for (const [body, field] of cases) {
      const res = await restore(app, org.keys.write, tenant.id, user.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      expect(fieldsOf(res.body)).toEqual([field]);
    }
    const bad = await app.request('POST', `/api/identity/users/${user.id}/restore`, {
      key: org.keys.write,
      headers: { 'X-Tenant-Id': tenant.id },
      rawBody: '[1]',
    });
    expect(bad.status).toBe(400);
    expect((await userRow(app, user.id)).deleted_at).not.toBeNull();
    expect((await cloudUserOf(app, tenant, user.externalId)).deletedAt).not.toBeNull();
    expect((await eventsAbout(app, user.id)).map((e) => e.kind)).toEqual(['user.deleted']);
  });

  it('needs write:users (Read key 403) and hides other organizations’ users and tenants (404)', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const read = await restore(app, org.keys.read, tenant.id, user.id);
    expect(read.status).toBe(403);
    expect(read.body.error?.code).toBe('FORBIDDEN');

    // Their tenant, our user id; our tenant from their key; an unknown user id.
    const theirs = await createTenant(app, other.scope);
    for (const [key, tenantId, userId] of [
      [other.keys.admin, theirs.id, user.id],
      [other.keys.admin, tenant.id, user.id],
      [org.keys.write, tenant.id, '00000000-0000-4000-8000-000000000000'],
      [org.keys.write, tenant.id, 'not-a-uuid'],
    ]) {
      const res = await restore(app, key, tenantId, userId);
      expect(res.status).toBe(404);
      expect(res.body.error?.code).toBe('NOT_FOUND');
    }
    expect((await userRow(app, user.id)).deleted_at).not.toBeNull();
  });

  it('restores once when two restores race', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const [a, b] = await Promise.all([
      restore(app, org.keys.write, tenant.id, user.id),
      restore(app, org.keys.write, tenant.id, user.id),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error?.details).toMatchObject({ from: 'active', to: 'active' });
    expect((await eventsAbout(app, user.id)).filter((e) => e.kind === 'user.restored')).toHaveLength(1);
    expect((await userRow(app, user.id)).deleted_at).toBeNull();
    expect((await cloudUserOf(app, tenant, user.externalId)).deletedAt).toBeNull();
  });
  it('refuses with 409 a user the upstream cloud no longer holds, and keeps it in the recycle bin', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    expect(await simulatedCloud(app).purgeUser(tenant.externalId, user.externalId)).toBe(true);
    const res = await restore(app, org.keys.write, tenant.id, user.id);
    expect(res.status).toBe(409);
    expect(res.body.error?.details).toMatchObject({ upstream: 'missing' });
    expect((await userRow(app, user.id)).deleted_at).not.toBeNull();
  });
});

describe('GraphQL restoreUser', () => {
  const RESTORE = `mutation($t: UUID!, $id: UUID!, $input: RestoreUserInput) {
    restoreUser(tenantId: $t, id: $id, input: $input) { id userPrincipalName accountStatus }
  }`;

  it('restores with UPPER_SNAKE enums; FORBIDDEN for a Read key; INVALID_REQUEST for a bad UPN', async () => {
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    const read = await app.graphql(org.keys.read, RESTORE, { t: tenant.id, id: user.id });
    expect(read.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const bad = await app.graphql(org.keys.write, RESTORE, {
      t: tenant.id,
      id: user.id,
      input: { userPrincipalName: 'nope' },
    });
    expect(bad.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [expect.objectContaining({ field: 'userPrincipalName' })] },
    });
    const res = await app.graphql<{ restoreUser: Record<string, unknown> }>(org.keys.write, RESTORE, {
      t: tenant.id,
      id: user.id,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.restoreUser).toEqual({
      id: user.id,
      userPrincipalName: user.userPrincipalName,
      accountStatus: 'ENABLED',
    });
  });
});
