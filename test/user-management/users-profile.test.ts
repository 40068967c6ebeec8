import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { UserSource } from '../../src/users/user.enums.js';
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
import { softDelete } from '../users/deleted-user-kit.js';
import { countUsers, eventsAbout, userRow } from '../users/user-test-kit.js';
import { um } from './um-kit.js';
import type { DataOf } from '../helpers/api-types.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: { domain: 'fabrikam.example' } }));
});
afterAll(() => app.stop());

describe('POST /api/user-management-identity/users (the v1 create rules)', () => {
  it('creates with a generated password shown once, as POST /v1/tenants/:id/users does', async () => {
    const res = await um<DataOf<'createManagedUser'>>(app, 'POST', '', {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { firstName: 'Dana', lastName: 'Scully', userPrincipalName: 'Dana@fabrikam.example' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      displayName: 'Dana Scully',
      userPrincipalName: 'dana@fabrikam.example',
      source: 'Cloud',
      generatedPassword: expect.stringMatching(/.{16,}/),
    });
    const again = await um(app, 'POST', '', {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { firstName: 'Dana', lastName: 'Two', userPrincipalName: 'dana@fabrikam.example' },
    });
    expect(again.status).toBe(409);
  });

  it('refuses bad input with 400 naming the fields, nothing written; Read keys get 403', async () => {
    const before = await countUsers(app, tenant.id);
    const bad = await um(app, 'POST', '', {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { firstName: ' ', lastName: 'X', userPrincipalName: 'x@elsewhere.example', password: 'short' },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field);
    expect(fields).toContain('firstName');
    expect(await countUsers(app, tenant.id)).toBe(before);
    const forbidden = await um(app, 'POST', '', {
      key: org.keys.read,
      tenantId: tenant.id,
      body: { firstName: 'Read', lastName: 'Only', userPrincipalName: 'read@fabrikam.example' },
    });
    expect(forbidden.status).toBe(403);
  });
});

describe('GET /api/user-management-identity/users/:userId', () => {
  it('shows licenses with SKU names and groups; 404 for another organization and a deleted user', async () => {
    const user = await createUser(app, tenant);
    const sku = await createSku(app, tenant, { total: 5, skuPartNumber: 'SPE_E5', name: 'Microsoft 365 E5' });
    await giveLicense(app, tenant, user, sku);
    await createGroup(app, tenant, { displayName: 'Finance team', members: [user] });
    const res = await um<DataOf<'getManagedUser'>>(app, 'GET', `/${user.id}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.licenseDetails).toEqual([
      expect.objectContaining({ skuId: sku.skuId, skuPartNumber: 'SPE_E5', name: 'Microsoft 365 E5' }),
    ]);
    expect(res.body.data.groups).toEqual([{ id: expect.any(String), displayName: 'Finance team' }]);
    const foreign = await um(app, 'GET', `/${user.id}`, { key: other.keys.admin, tenantId: tenant.id });
    expect(foreign.status).toBe(404);
    const otherTenant = await createTenant(app, other.scope);
    const crossed = await um(app, 'GET', `/${user.id}`, { key: other.keys.admin, tenantId: otherTenant.id });
    expect(crossed.status).toBe(404);
    await softDelete(app, org.keys.admin, tenant, user);
    expect((await um(app, 'GET', `/${user.id}`, { key: org.keys.read, tenantId: tenant.id })).status).toBe(
      404,
    );
  });
});

describe('PUT /api/user-management-identity/users/:userId (full replacement)', () => {
  it('replaces the profile: fields left out are cleared, the cloud follows, user.updated names the changes', async () => {
    const user = await createUser(app, tenant, { jobTitle: 'Analyst', department: 'Finance' });
    const res = await um<DataOf<'replaceUser'>>(app, 'PUT', `/${user.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: {
        firstName: user.firstName,
        lastName: user.lastName,
        userPrincipalName: user.userPrincipalName,
        jobTitle: 'Controller',
        usageLocation: 'US',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ jobTitle: 'Controller', department: null });
    expect((await cloudUserOf(app, tenant, user.externalId)).department).toBeNull();
    const [event] = (await eventsAbout(app, user.id)).filter((e) => e.kind === 'user.updated');
    expect(event.payload.details.changedFields).toEqual(expect.arrayContaining(['jobTitle', 'department']));
  });

  it('a synced user may send its read-only values unchanged, and gets 409 for changing one', async () => {
    const user = await createUser(app, tenant, { source: UserSource.SYNCED, department: 'Ops' });
    const base = {
      firstName: user.firstName,
      lastName: user.lastName,
      userPrincipalName: user.userPrincipalName,
      department: 'Ops',
    };
    const same = await um(app, 'PUT', `/${user.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...base, usageLocation: 'DE' },
    });
    expect(same.status).toBe(200);
    const changed = await um(app, 'PUT', `/${user.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...base, department: 'Sales' },
    });
    expect(changed.status).toBe(409);
    expect((await userRow(app, user.id)) as unknown).toMatchObject({ usage_location: 'DE' });
  });

  it('400 without the required names (nothing written); GraphQL replaceUser works the same', async () => {
    const user = await createUser(app, tenant, { jobTitle: 'Keep' });
    const bad = await um(app, 'PUT', `/${user.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { firstName: 'Only' },
    });
    expect(bad.status).toBe(400);
    expect((await userRow(app, user.id)).job_title).toBe('Keep');
    const res = await app.graphql<{ replaceUser: { displayName: string; jobTitle: string | null } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!, $in: ReplaceUserInput!) {
        replaceUser(tenantId: $t, id: $id, input: $in) { displayName jobTitle } }`,
      {
        t: tenant.id,
        id: user.id,
        in: { firstName: 'Fox', lastName: 'Mulder', userPrincipalName: user.userPrincipalName },
      },
    );
    expect(res.body.data?.replaceUser).toEqual({ displayName: 'Fox Mulder', jobTitle: null });
  });
});

describe('POST /api/user-management-identity/users/:userId/reset-password', () => {
  type ResetBody = DataOf<'resetUserPassword'>;

  it('generates a password once, forces a change by default and revokes the sessions in the cloud', async () => {
    const user = await createUser(app, tenant);
    const res = await um<ResetBody>(app, 'POST', `/${user.id}/reset-password`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      temporaryPassword: expect.stringMatching(/.{16,}/),
      forceChangeAtNextSignIn: true,
      sessionsRevokedAt: app.clock.now().toISOString(),
    });
    const cloud = (await cloudUserOf(app, tenant, user.externalId)) as unknown as Record<string, unknown>;
    expect(cloud).toMatchObject({
      sessionsRevokedAt: app.clock.now().toISOString(),
      forceChangePasswordNextSignIn: true,
      passwordLastSetAt: app.clock.now().toISOString(),
    });
    expect((await userRow(app, user.id)).sessions_revoked_at).toEqual(app.clock.now());
    const events = await eventsAbout(app, user.id);
    expect(events.map((e) => e.kind)).toEqual(['user.updated']);
    expect(events[0].payload.details).toMatchObject({ changedFields: ['password'], sessionsRevoked: true });
    expect(JSON.stringify(events[0].payload)).not.toContain(res.body.data.temporaryPassword!);
  });

  it('takes a supplied password (not echoed) and forceChange false; a weak one is 400 with nothing done', async () => {
    const user = await createUser(app, tenant);
    const weak = await um(app, 'POST', `/${user.id}/reset-password`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { password: 'abc' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error?.details.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'password' })]),
    );
    expect((await userRow(app, user.id)).sessions_revoked_at).toBeNull();
    const res = await app.graphql<{ resetUserPassword: Omit<ResetBody, 'user'> }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { resetUserPassword(tenantId: $t, id: $id,
        input: { password: "Correct-Horse-Battery-9", forceChangeAtNextSignIn: false }) {
        temporaryPassword forceChangeAtNextSignIn sessionsRevokedAt } }`,
      { t: tenant.id, id: user.id },
    );
    expect(res.body.data?.resetUserPassword).toMatchObject({
      temporaryPassword: null,
      forceChangeAtNextSignIn: false,
    });
  });

  it('409 for a deleted user and for a synced user; 404 for another organization; 403 for Read', async () => {
    const deleted = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, deleted);
    const synced = await createUser(app, tenant, { source: UserSource.SYNCED });
    const onDeleted = await um(app, 'POST', `/${deleted.id}/reset-password`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(onDeleted.status).toBe(409);
    const onSynced = await um(app, 'POST', `/${synced.id}/reset-password`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(onSynced.status).toBe(409);
    expect(onSynced.body.error?.message).toMatch(/on-premises/);
    const foreign = await um(app, 'POST', `/${synced.id}/reset-password`, {
      key: other.keys.admin,
      tenantId: tenant.id,
    });
    expect(foreign.status).toBe(404);
    const read = await um(app, 'POST', `/${synced.id}/reset-password`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(read.status).toBe(403);
    expect((await userRow(app, synced.id)).sessions_revoked_at).toBeNull();
  });
});
