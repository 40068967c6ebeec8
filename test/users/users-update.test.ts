import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { AccountStatus, UserSource } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createSku, cloudUserOf, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { eventsAbout, userRow, type Envelope, type UserBody } from './user-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({
    other: true,
    tenant: {
      domain: 'fabrikam.example',
      extraDomains: ['fabrikam.test'],
    },
  }));
});
afterAll(() => app.stop());

function patchUser(userId: string, body: unknown, key = org.keys.write) {
  return app.request<Envelope<UserBody>>('PATCH', `/v1/tenants/${tenant.id}/users/${userId}`, { key, body });
}

describe('PATCH /v1/tenants/:id/users/:userId', () => {
  it('changes the given fields only, in our row and in the cloud, and writes user.updated', async () => {
    const manager = await createUser(app, tenant);
    const user = await createUser(app, tenant, { firstName: 'Old', lastName: 'Name', jobTitle: 'Intern' });
    app.clock.advance(60_000);
    const res = await patchUser(user.id, {
      displayName: 'New Display',
      department: 'Research',
      jobTitle: null,
      usageLocation: 'DE',
      accountStatus: 'Disabled',
      mfaStatus: 'Enabled',
      managerId: manager.id,
      userPrincipalName: 'New.Name@FABRIKAM.test',
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      id: user.id,
      firstName: 'Old',
      lastName: 'Name',
      displayName: 'New Display',
      department: 'Research',
      jobTitle: null,
      usageLocation: 'DE',
      accountStatus: 'Disabled',
      mfaStatus: 'Enabled',
      managerId: manager.id,
      userPrincipalName: 'new.name@fabrikam.test',
    });
    const cloud = await cloudUserOf(app, tenant, user.externalId);
    expect(cloud).toMatchObject({
      displayName: 'New Display',
      department: 'Research',
      jobTitle: null,
      usageLocation: 'DE',
      accountEnabled: false,
      mfaStatus: 'Enabled',
      managerExternalId: manager.externalId,
      userPrincipalName: 'new.name@fabrikam.test',
      firstName: 'Old',
    });
    const events = await eventsAbout(app, user.id);
    expect(events.map((e) => e.kind)).toEqual(['user.updated']);
    expect(events[0].payload.details).toMatchObject({
      userId: user.id,
      userPrincipalName: 'new.name@fabrikam.test',
      changedFields: expect.arrayContaining(['displayName', 'jobTitle', 'managerId', 'userPrincipalName']),
    });
  });

  it('treats an empty body or unchanged values as a no-op: 200, no event', async () => {
    const user = await createUser(app, tenant, { department: 'Sales' });
    expect((await patchUser(user.id, {})).status).toBe(200);
    const same = await patchUser(user.id, { department: ' Sales ' });
    expect(same.status).toBe(200);
    expect(same.body.data.department).toBe('Sales');
    expect(await eventsAbout(app, user.id)).toEqual([]);
  });

  it('keeps the usage location of a user who holds licenses: clearing it is 409 naming usageLocation, nothing written', async () => {
    const licensed = await createUser(app, tenant, { usageLocation: 'CH' });
    const sku = await createSku(app, tenant, { total: 5 });
    await giveLicense(app, tenant, licensed, sku);
    const refused = await patchUser(licensed.id, { usageLocation: null, jobTitle: 'Changed' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'usageLocation', skuIds: [sku.skuId] },
    });
    expect(await userRow(app, licensed.id)).toMatchObject({ usage_location: 'CH', job_title: null });
    expect(await eventsAbout(app, licensed.id)).toEqual([]);
    // Without licenses it may be cleared.
    const unlicensed = await createUser(app, tenant, { usageLocation: 'CH' });
    const cleared = await patchUser(unlicensed.id, { usageLocation: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.usageLocation).toBeNull();
  });

  it('keeps a service account’s sign-in blocked: enabling it is 409 naming accountStatus, nothing written', async () => {
    const account = await createUser(app, tenant, {
      isServiceAccount: true,
      accountStatus: AccountStatus.DISABLED,
    });
    const refused = await patchUser(account.id, { accountStatus: 'Enabled', jobTitle: 'Scanner' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'accountStatus' } });
    expect(await userRow(app, account.id)).toMatchObject({ account_status: 'Disabled', job_title: null });
    expect((await cloudUserOf(app, tenant, account.externalId)).accountEnabled).toBe(false);
    expect(await eventsAbout(app, account.id)).toEqual([]);
    // Its other fields stay editable.
    expect((await patchUser(account.id, { jobTitle: 'Scanner' })).status).toBe(200);
  });

  it('refuses the on-premises attributes of a synced user with 409 naming each field; usageLocation and mfaStatus stay editable', async () => {
    const synced = await createUser(app, tenant, { source: UserSource.SYNCED, department: 'Ops' });
    const refused = await patchUser(synced.id, {
      department: 'Finance',
      jobTitle: 'Boss',
      usageLocation: 'FR',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('CONFLICT');
    expect(refused.body.error?.details.fields).toEqual([
      expect.objectContaining({ field: 'jobTitle' }),
      expect.objectContaining({ field: 'department' }),
    ]);
    expect((await userRow(app, synced.id)).usage_location).toBe('US');

    const allowed = await patchUser(synced.id, { usageLocation: 'FR', mfaStatus: 'Enforced' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toMatchObject({
      usageLocation: 'FR',
      mfaStatus: 'Enforced',
      department: 'Ops',
    });
  });

  it.each([
    ['an unknown field', { nickname: 'Bob' }, 'nickname'],
    ['a read-only field', { source: 'Synced' }, 'source'],
    ['clearing a required field', { firstName: null }, 'firstName'],
    ['a blank last name', { lastName: '  ' }, 'lastName'],
    ['a UPN of a foreign domain', { userPrincipalName: 'x@contoso.example' }, 'userPrincipalName'],
    ['a bad usage location', { usageLocation: 'Germany' }, 'usageLocation'],
    ['a wrong type', { mfaStatus: true }, 'mfaStatus'],
    ['a password (it has its own endpoint)', { password: 'Correct-Horse-42' }, 'password'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_name, body, field) => {
    const user = await createUser(app, tenant, { firstName: 'Stay', lastName: 'Same' });
    const res = await patchUser(user.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field })]),
    );
    const row = await userRow(app, user.id);
    expect(row).toMatchObject({ first_name: 'Stay', user_principal_name: user.userPrincipalName });
    expect(await eventsAbout(app, user.id)).toEqual([]);
  });

  it('checks the manager: same tenant, not the user, no cycle', async () => {
    const boss = await createUser(app, tenant);
    const middle = await createUser(app, tenant, { managerId: boss.id });
    const elsewhere = await createUser(app, await createTenant(app, org.scope));
    for (const [managerId, problem] of [
      [boss.id, /themself/],
      [middle.id, /cycle/],
      [elsewhere.id, /same tenant/],
    ] as const) {
      const res = await patchUser(boss.id, { managerId });
      expect(res.status).toBe(400);
      const fields = res.body.error?.details.fields as Array<{ field: string; problem: string }>;
      expect(fields[0]).toEqual({ field: 'managerId', problem: expect.stringMatching(problem) });
    }
    const cleared = await patchUser(middle.id, { managerId: null });
    expect(cleared.body.data.managerId).toBeNull();
  });

  it('refuses a UPN taken by another user with 409', async () => {
    const first = await createUser(app, tenant, { userPrincipalName: 'owner@fabrikam.example' });
    const second = await createUser(app, tenant);
    const res = await patchUser(second.id, { userPrincipalName: 'OWNER@fabrikam.example' });
    expect(res.status).toBe(409);
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'userPrincipalName' })]);
    expect((await userRow(app, second.id)).user_principal_name).toBe(second.userPrincipalName);
    expect((await cloudUserOf(app, tenant, second.externalId)).userPrincipalName).toBe(
      second.userPrincipalName,
    );
    // Keeping one's own UPN (in another case) is not a clash.
    expect((await patchUser(first.id, { userPrincipalName: 'Owner@fabrikam.example' })).status).toBe(200);
  });

  it('answers 409 for a deleted user, 404 for another organization; 403 for a Read key', async () => {
    const deleted = await createUser(app, tenant, { deletedAt: app.clock.now() });
    expect((await patchUser(deleted.id, { jobTitle: 'Ghost' })).status).toBe(409);
    const user = await createUser(app, tenant);
    const foreign = await patchUser(user.id, { jobTitle: 'Spy' }, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.code).toBe('NOT_FOUND');
    const readOnly = await patchUser(user.id, { jobTitle: 'Reader' }, org.keys.read);
    expect(readOnly.status).toBe(403);
    expect((await userRow(app, user.id)).job_title).toBeNull();
  });
});

describe('GraphQL updateUser', () => {
  it('updates with UPPER_SNAKE enums', async () => {
    const user = await createUser(app, tenant);
    const res = await app.graphql<{ updateUser: { mfaStatus: string; companyName: string } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!, $input: UpdateUserInput!) {
        updateUser(tenantId: $t, id: $id, input: $input) { mfaStatus companyName }
      }`,
      { t: tenant.id, id: user.id, input: { mfaStatus: 'ENFORCED', companyName: 'Fabrikam' } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.updateUser).toEqual({ mfaStatus: 'ENFORCED', companyName: 'Fabrikam' });
  });

  it('gives CONFLICT with details.fields for a synced user', async () => {
    const synced = await createUser(app, tenant, { source: UserSource.SYNCED });
    const res = await app.graphql(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { updateUser(tenantId: $t, id: $id, input: { lastName: "X" }) { id } }`,
      { t: tenant.id, id: synced.id },
    );
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { fields: [expect.objectContaining({ field: 'lastName' })] },
    });
  });
});
