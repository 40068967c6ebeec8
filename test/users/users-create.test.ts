import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { cloudUserOf, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  countUsers,
  eventsAbout,
  userRow,
  USER_WIRE_FIELDS,
  type Envelope,
  type UserBody,
} from './user-test-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

const STRONG_PASSWORD = 'Correct-Horse-42';

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({
    other: true,
    tenant: {
      domain: 'contoso.example',
      extraDomains: ['contoso-mail.example'],
    },
  }));
});
afterAll(() => app.stop());

function postUser(body: unknown, key = org.keys.write, tenantId = tenant.id) {
  return app.request<Envelope<UserBody>>('POST', `/v1/tenants/${tenantId}/users`, { key, body });
}

let sequence = 0;
function newUpn(domain = 'contoso.example'): string {
  sequence += 1;
  return `new.user${sequence}@${domain}`;
}

describe('POST /v1/tenants/:id/users', () => {
  it('creates a cloud user (201): stored, in the simulated cloud, display name generated, user.created in the outbox', async () => {
    const res = await postUser({
      firstName: '  Grace ',
      lastName: 'Hopper',
      userPrincipalName: 'Grace.Hopper@CONTOSO-MAIL.example',
      password: STRONG_PASSWORD,
      jobTitle: 'Rear Admiral',
      usageLocation: 'US',
      mfaStatus: 'Enforced',
    });
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const user = res.body.data;
    expect(user).toMatchObject({
      tenantId: tenant.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Grace Hopper',
      userPrincipalName: 'grace.hopper@contoso-mail.example',
      jobTitle: 'Rear Admiral',
      department: null,
      usageLocation: 'US',
      accountStatus: 'Enabled',
      mfaStatus: 'Enforced',
      userType: 'Member',
      source: 'Cloud',
      isServiceAccount: false,
      licenses: [],
      managerId: null,
      lastSignInAt: null,
      createdAt: app.clock.now().toISOString(),
      generatedPassword: null,
    });
    expect(Object.keys(user)).toEqual(expect.arrayContaining([...USER_WIRE_FIELDS]));

    const row = await userRow(app, user.id);
    expect(row.user_principal_name).toBe('grace.hopper@contoso-mail.example');
    expect(JSON.stringify(row)).not.toContain(STRONG_PASSWORD);
    const cloud = await cloudUserOf(app, tenant, row.external_id);
    expect(cloud).toMatchObject({
      userPrincipalName: 'grace.hopper@contoso-mail.example',
      displayName: 'Grace Hopper',
      mfaStatus: 'Enforced',
      accountEnabled: true,
    });

    const events = await eventsAbout(app, user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'user.created',
      severity: 'informational',
      payload: {
        event: 'user.created',
        tenant: { id: tenant.id, name: tenant.name, domain: 'contoso.example' },
        details: { userId: user.id, userPrincipalName: 'grace.hopper@contoso-mail.example' },
        actionUrl: `http://app.test/tenants/${tenant.id}/users/${user.id}`,
      },
    });
  });

  it('creates a service account with sign-in blocked (SPEC 2.3); asking for Enabled is 400 naming accountStatus, nothing written', async () => {
    const res = await postUser({
      firstName: 'Scanner',
      lastName: 'Service',
      userPrincipalName: newUpn(),
      isServiceAccount: true,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ isServiceAccount: true, accountStatus: 'Disabled' });
    expect(await cloudUserOf(app, tenant, (await userRow(app, res.body.data.id)).external_id)).toMatchObject({
      isServiceAccount: true,
      accountEnabled: false,
    });

    const before = await countUsers(app, tenant.id);
    const cloudBefore = (await simulatedCloud(app).listUsers(tenant.externalId)).length;
    const refused = await postUser({
      firstName: 'Relay',
      lastName: 'Service',
      userPrincipalName: newUpn(),
      isServiceAccount: true,
      accountStatus: 'Enabled',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('INVALID_REQUEST');
    expect(refused.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'accountStatus' })]);
    expect(await countUsers(app, tenant.id)).toBe(before);
    expect((await simulatedCloud(app).listUsers(tenant.externalId)).length).toBe(cloudBefore);
  });

  it('generates a strong password when none is given, returns it once and never again', async () => {
    const res = await postUser({ firstName: 'Alan', lastName: 'Turing', userPrincipalName: newUpn() });
    expect(res.status).toBe(201);
    const password = res.body.data.generatedPassword;
    expect(typeof password).toBe('string');
    expect((password as string).length).toBeGreaterThanOrEqual(Math.max(16, tenant.passwordMinLength));
    for (const characterClass of [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/]) {
      expect(password).toMatch(characterClass);
    }
    const row = await userRow(app, res.body.data.id);
    expect(JSON.stringify(row)).not.toContain(password as string);

    const again = await app.request<Envelope<UserBody>>(
      'GET',
      `/v1/tenants/${tenant.id}/users/${res.body.data.id}`,
      { key: org.keys.read },
    );
    expect(again.body.data).not.toHaveProperty('generatedPassword');
    const viaGraphql = await app.graphql<{ user: { generatedPassword: string | null } }>(
      org.keys.read,
      'query($t: UUID!, $id: UUID!) { user(tenantId: $t, id: $id) { generatedPassword } }',
      { t: tenant.id, id: res.body.data.id },
    );
    expect(viaGraphql.body.data?.user.generatedPassword).toBeNull();
  });

  it('takes a manager of the same tenant and links it in the cloud too', async () => {
    const manager = await createUser(app, tenant);
    const res = await postUser({
      firstName: 'Report',
      lastName: 'One',
      userPrincipalName: newUpn(),
      managerId: manager.id,
      displayName: 'R. One',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ managerId: manager.id, displayName: 'R. One' });
    const cloud = await cloudUserOf(app, tenant, (await userRow(app, res.body.data.id)).external_id);
    expect(cloud.managerExternalId).toBe(manager.externalId);
  });

  describe('refuses bad input with 400 naming the field, and changes nothing', () => {
    interface BadInputCase {
      name: string;
      body: () => Record<string, unknown> | { raw: string };
      field: string;
      problem?: RegExp;
    }
    const rows: Array<[string, BadInputCase['body'], string, RegExp?]> = [
      ['missing firstName', () => ({ lastName: 'X', userPrincipalName: newUpn() }), 'firstName', /required/],
      [
        'blank lastName',
        () => ({ firstName: 'X', lastName: '   ', userPrincipalName: newUpn() }),
        'lastName',
      ],
      [
        "a domain that is not the tenant's",
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: 'x.y@fabrikam.example' }),
        'userPrincipalName',
        /contoso\.example, contoso-mail\.example/,
      ],
      [
        'a UPN without @',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: 'x.y.contoso.example' }),
        'userPrincipalName',
      ],
      [
        'a short password',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), password: 'Ab1!' }),
        'password',
        /at least 12 characters/,
      ],
      [
        'a password with two character classes',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), password: 'lowercaseonly123' }),
        'password',
        /at least 3 of/,
      ],
      [
        'an unknown field',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), favouriteColour: 'blue' }),
        'favouriteColour',
        /not a known field/,
      ],
      ['a wrong type', () => ({ firstName: 42, lastName: 'Y', userPrincipalName: newUpn() }), 'firstName'],
      [
        'a usage location that is not ISO 3166-1 alpha-2',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), usageLocation: 'usa' }),
        'usageLocation',
      ],
      [
        'a usage location that is no country',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), usageLocation: 'QQ' }),
        'usageLocation',
      ],
      [
        'an unknown account status',
        () => ({ firstName: 'X', lastName: 'Y', userPrincipalName: newUpn(), accountStatus: 'Paused' }),
        'accountStatus',
      ],
      [
        'a manager that is no user of the tenant',
        () => ({
          firstName: 'X',
          lastName: 'Y',
          userPrincipalName: newUpn(),
          managerId: '00000000-0000-4000-8000-000000000000',
        }),
        'managerId',
      ],
      [
        'a first name that is too long',
        () => ({ firstName: 'F'.repeat(65), lastName: 'Y', userPrincipalName: newUpn() }),
        'firstName',
        /at most 64/,
      ],
      ['malformed JSON', () => ({ raw: '{"firstName": "X",' }), 'body', /not valid JSON/],
      ['a JSON array body', () => ({ raw: '[]' }), 'body'],
      [
        'a body over 1 MiB',
        () => ({ raw: JSON.stringify({ firstName: 'X', lastName: 'x'.repeat(1024 * 1024) }) }),
        'body',
        /at most 1048576 bytes/,
      ],
    ];
    // Objects, not tuples: it.each would hand a shorter row jest's `done` callback.
    const cases: BadInputCase[] = rows.map(([name, body, field, problem]) => ({
      name,
      body,
      field,
      problem,
    }));

    it.each(cases)('$name', async ({ body: makeBody, field, problem }) => {
      const before = await countUsers(app, tenant.id);
      const body = makeBody();
      const res =
        'raw' in body
          ? await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/users`, {
              key: org.keys.write,
              rawBody: body.raw as string,
            })
          : await postUser(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      const fields = res.body.error?.details.fields as Array<{ field: string; problem: string }>;
      expect(fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      if (problem) expect(fields.find((f) => f.field === field)?.problem).toMatch(problem);
      expect(await countUsers(app, tenant.id)).toBe(before);
    });
  });

  it('refuses a UPN already taken (any case) with 409 naming userPrincipalName; a deleted user’s UPN is free', async () => {
    await createUser(app, tenant, { userPrincipalName: 'taken@contoso.example' });
    await createUser(app, tenant, {
      userPrincipalName: 'recycled@contoso.example',
      deletedAt: app.clock.now(),
    });
    const before = await countUsers(app, tenant.id);
    const clash = await postUser({
      firstName: 'T',
      lastName: 'K',
      userPrincipalName: 'TAKEN@contoso.example',
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error?.code).toBe('CONFLICT');
    expect(clash.body.error?.details.fields).toEqual([
      expect.objectContaining({ field: 'userPrincipalName' }),
    ]);
    expect(await countUsers(app, tenant.id)).toBe(before);
    const reuse = await postUser({
      firstName: 'R',
      lastName: 'C',
      userPrincipalName: 'recycled@contoso.example',
    });
    expect(reuse.status).toBe(201);
  });

  it('lets exactly one of 10 concurrent creates of one UPN win; the others get 409 and leave no trace', async () => {
    const userPrincipalName = 'race@contoso.example';
    const before = await countUsers(app, tenant.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postUser({ firstName: 'Racer', lastName: String(i), userPrincipalName }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    expect(await countUsers(app, tenant.id)).toBe(before + 1);
    const { rows } = await app.pool.query<{ n: string }>(
      `select count(*) as n from sim_cloud_objects
        where tenant_external_id = $1 and kind = 'user' and data->>'userPrincipalName' = $2 and data->>'deletedAt' is null`,
      [tenant.externalId, userPrincipalName],
    );
    expect(Number(rows[0].n)).toBe(1);
    const { rows: events } = await app.pool.query<{ n: string }>(
      `select count(*) as n from domain_events where kind = 'user.created' and payload->'details'->>'userPrincipalName' = $1`,
      [userPrincipalName],
    );
    expect(Number(events[0].n)).toBe(1);
  });

  it('needs write:users (Read key → 403) and hides other organizations’ tenants (404)', async () => {
    const body = { firstName: 'X', lastName: 'Y', userPrincipalName: newUpn() };
    const readOnly = await postUser(body, org.keys.read);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error?.code).toBe('FORBIDDEN');
    const foreign = await postUser(body, other.keys.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.code).toBe('NOT_FOUND');
  });
});

describe('GraphQL createUser', () => {
  const CREATE = `mutation($t: UUID!, $input: CreateUserInput!) {
    createUser(tenantId: $t, input: $input) { id userPrincipalName accountStatus mfaStatus generatedPassword }
  }`;

  it('creates with UPPER_SNAKE enums and returns the generated password', async () => {
    const res = await app.graphql<{ createUser: Record<string, unknown> }>(org.keys.write, CREATE, {
      t: tenant.id,
      input: {
        firstName: 'Katherine',
        lastName: 'Johnson',
        userPrincipalName: newUpn(),
        accountStatus: 'DISABLED',
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.createUser).toMatchObject({
      accountStatus: 'DISABLED',
      mfaStatus: 'DISABLED',
      generatedPassword: expect.any(String),
    });
  });

  it('gives INVALID_REQUEST naming password for a weak password', async () => {
    const before = await countUsers(app, tenant.id);
    const res = await app.graphql(org.keys.write, CREATE, {
      t: tenant.id,
      input: { firstName: 'W', lastName: 'P', userPrincipalName: newUpn(), password: 'password' },
    });
    expect(res.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(res.body.errors?.[0].extensions.details?.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'password' })]),
    );
    expect(await countUsers(app, tenant.id)).toBe(before);
  });
});
