import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { Permission } from '../../src/core/permissions.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { MfaStatus } from '../../src/users/user.enums.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { grantConsent, cloudUserOf, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { um } from '../user-management/um-kit.js';
import { eventsAbout } from '../users/user-test-kit.js';

/**
 * Issue #32 item 2: a Write key took over the break-glass Global Administrator (reset with
 * forceChangeAtNextSignIn false → 200, PATCH mfaStatus Disabled → 200). Admin roles come from the cloud;
 * privileged accounts need the Admin level for reset, offboarding and delete, a reset always forces a change
 * at next sign-in, and MFA is never turned off.
 */

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let writeToken: string;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ jobs: true, tenant: true }));
  const client = await createOAuthClient(app, org.scope);
  const member = await createMember(app, org.organization.id);
  writeToken = await issueAccessToken(app, client, member, [Permission.READ_USERS, Permission.WRITE_USERS]);
});
afterAll(() => app.stop());

const globalAdmin = () =>
  createUser(app, tenant, { directoryRoles: ['Global Administrator'], mfaStatus: MfaStatus.ENFORCED });

async function row(user: User) {
  const { rows } = await app.pool.query<{
    mfa_status: string;
    sessions_revoked_at: Date | null;
    deleted_at: Date | null;
  }>('select mfa_status, sessions_revoked_at, deleted_at from users where id = $1', [user.id]);
  return rows[0];
}

async function eventsOf(user: User): Promise<number> {
  return (await eventsAbout(app, user.id)).length;
}

describe('privileged accounts (an administrator role of the customer directory)', () => {
  it('refuses a Write key the reset of a Global Administrator (403 PRIVILEGED_ACCOUNT), nothing written', async () => {
    const admin = await globalAdmin();
    const events = await eventsOf(admin);
    for (const key of [org.keys.write, writeToken]) {
      const refused = await um(app, 'POST', `/${admin.id}/reset-password`, {
        key,
        tenantId: tenant.id,
        body: { password: 'Taken-Over-Password-42!', forceChangeAtNextSignIn: false },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'FORBIDDEN',
        details: { reason: 'PRIVILEGED_ACCOUNT', directoryRoles: ['Global Administrator'] },
      });
    }
    expect((await row(admin)).sessions_revoked_at).toBeNull();
    expect(await eventsOf(admin)).toBe(events);
  });

  it('lets an Admin key reset it, always forcing a change at next sign-in (false is 400 naming the field)', async () => {
    const admin = await globalAdmin();
    const keepsPassword = await um(app, 'POST', `/${admin.id}/reset-password`, {
      key: org.keys.admin,
      tenantId: tenant.id,
      body: { forceChangeAtNextSignIn: false },
    });
    expect(keepsPassword.status).toBe(400);
    expect(keepsPassword.body.error?.details.fields).toEqual([
      expect.objectContaining({ field: 'forceChangeAtNextSignIn' }),
    ]);
    expect((await row(admin)).sessions_revoked_at).toBeNull();
    const reset = await um<{ forceChangeAtNextSignIn: boolean }>(app, 'POST', `/${admin.id}/reset-password`, {
      key: org.keys.admin,
      tenantId: tenant.id,
      body: {},
    });
    expect(reset.status).toBe(200);
    expect(reset.body.data.forceChangeAtNextSignIn).toBe(true);
  });

  it('never turns MFA off, whatever the key (403), upstream or here', async () => {
    const admin = await globalAdmin();
    for (const key of [org.keys.write, org.keys.admin]) {
      const patched = await app.request('PATCH', `/v1/tenants/${tenant.id}/users/${admin.id}`, {
        key,
        body: { mfaStatus: 'Disabled' },
      });
      expect(patched.status).toBe(403);
      expect((patched.body as { error: { details: unknown } }).error.details).toMatchObject({
        reason: 'PRIVILEGED_ACCOUNT',
        field: 'mfaStatus',
      });
    }
    expect((await row(admin)).mfa_status).toBe('Enforced');
    expect((await cloudUserOf(app, tenant, admin.externalId)).mfaStatus).toBe('Enforced');
    // An ordinary user's MFA may still be turned off by a Write key.
    const plain = await createUser(app, tenant, { mfaStatus: MfaStatus.ENABLED });
    const ordinary = await app.request('PATCH', `/v1/tenants/${tenant.id}/users/${plain.id}`, {
      key: org.keys.write,
      body: { mfaStatus: 'Disabled' },
    });
    expect(ordinary.status).toBe(200);
  });

  it('refuses a Write key blocking its sign-in (403), lets an Admin key do it', async () => {
    const admin = await globalAdmin();
    const events = await eventsOf(admin);
    const blocked = await app.request('PATCH', `/v1/tenants/${tenant.id}/users/${admin.id}`, {
      key: org.keys.write,
      body: { accountStatus: 'Disabled' },
    });
    expect(blocked.status).toBe(403);
    expect((blocked.body as { error: { details: unknown } }).error.details).toMatchObject({
      reason: 'PRIVILEGED_ACCOUNT',
    });
    expect((await cloudUserOf(app, tenant, admin.externalId)).accountEnabled).toBe(true);
    expect(await eventsOf(admin)).toBe(events);
    const byAdmin = await app.request('PATCH', `/v1/tenants/${tenant.id}/users/${admin.id}`, {
      key: org.keys.admin,
      body: { accountStatus: 'Disabled' },
    });
    expect(byAdmin.status).toBe(200);
    expect((await cloudUserOf(app, tenant, admin.externalId)).accountEnabled).toBe(false);
  });

  it('refuses a Write key its offboarding, and a write:users token its delete, nothing written', async () => {
    const admin = await globalAdmin();
    const offboard = await um(app, 'POST', `/${admin.id}/offboard`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: {},
    });
    expect(offboard.status).toBe(403);
    const { rows } = await app.pool.query('select 1 from user_offboardings where user_id = $1', [admin.id]);
    expect(rows).toHaveLength(0);
    const deleted = await app.request('DELETE', `/v1/tenants/${tenant.id}/users/${admin.id}`, {
      key: writeToken,
    });
    expect(deleted.status).toBe(403);
    expect((await row(admin)).deleted_at).toBeNull();
    expect((await cloudUserOf(app, tenant, admin.externalId)).deletedAt).toBeNull();
  });

  it('learns the roles from the cloud: a sync marks the generated break-glass and IT administrators', async () => {
    const cloud = app.deps.clouds as SimulatedCloud;
    const slug = `p${randomUUID().slice(0, 8)}`;
    const { tenant: upstream } = await cloud.createTenant({
      externalId: randomUUID(),
      displayName: `Privileged ${slug}`,
      domains: [`${slug}.example.com`],
      seed: 11,
      employees: 25,
    });
    await grantConsent(app, upstream.externalId, org.organization.id);
    const onboarded = await app.graphql<{ onboardTenant: { id: string } }>(
      org.keys.write,
      'mutation ($id: String!) { onboardTenant(input: { externalId: $id }) { id } }',
      { id: upstream.externalId },
    );
    const tenantId = onboarded.body.data!.onboardTenant.id;
    await syncAndWait(app, org, tenantId);
    const { rows } = await app.pool.query<{ user_principal_name: string; directory_roles: string[] }>(
      `select user_principal_name, directory_roles from users
        where tenant_id = $1 and cardinality(directory_roles) > 0 order by user_principal_name`,
      [tenantId],
    );
    const globalAdmins = rows.filter((r) => r.directory_roles.includes('Global Administrator'));
    expect(globalAdmins.length).toBeGreaterThanOrEqual(2);
    expect(globalAdmins.map((r) => r.user_principal_name)).toContain(`admin@${slug}.example.com`);
    const listed = await app.graphql<{
      users: { items: { privileged: boolean; directoryRoles: string[] }[] };
    }>(
      org.keys.read,
      'query ($t: UUID!) { users(tenantId: $t, limit: 100) { items { privileged directoryRoles } } }',
      { t: tenantId },
    );
    const privileged = listed.body.data?.users.items.filter((u) => u.privileged) ?? [];
    expect(privileged.length).toBe(
      rows.length - rows.filter((r) => r.directory_roles.includes('Global Reader')).length,
    );
    // A second sync without upstream change changes nothing (roles compare item by item).
    expect((await syncAndWait(app, org, tenantId)).summary).toMatchObject({ usersUpdated: 0 });
  });
});
