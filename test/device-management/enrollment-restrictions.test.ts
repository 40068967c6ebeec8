import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createGroup } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  api,
  createPolicy,
  fieldsOf,
  RESTRICTIONS,
  rowCount,
  type PolicyBody,
} from './device-management-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const BLOCK_WINDOWS = {
  name: 'No Windows',
  restrictionType: 'Device Type Restrictions',
  assignedToAllUsers: true,
  platformRestrictions: [{ platform: 'Windows MDM', allowed: false }],
};

describe('GET /api/devices/enrollment-restrictions', () => {
  it('a tenant starts with the built-in default: 15 per user, 5 Windows, 5 iOS, 5 Android, all users, last', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await api<PolicyBody[]>(app, 'GET', RESTRICTIONS, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        isDefault: true,
        priority: 1,
        version: 1,
        restrictionType: 'Device Limit Restrictions',
        assignedToAllUsers: true,
        groupIds: [],
        deviceLimit: 15,
        platformLimits: [
          { platform: 'Windows', limit: 5 },
          { platform: 'iOS', limit: 5 },
          { platform: 'Android', limit: 5 },
        ],
      }),
    ]);
    // Reading writes nothing: the default is stored with the tenant's first change, under the same id.
    expect(await rowCount(app, 'enrollment_restrictions', tenant.id)).toBe(0);
    await createPolicy(app, org.keys.write, tenant, BLOCK_WINDOWS);
    const { rows } = await app.pool.query(
      'select id, priority from enrollment_restrictions where tenant_id = $1 and is_default',
      [tenant.id],
    );
    expect(rows).toEqual([{ id: res.body.data[0].id, priority: 2 }]);
  });

  it('GraphQL lists the same policies', async () => {
    const tenant = await createTenant(app, org.scope);
    await createPolicy(app, org.keys.write, tenant, BLOCK_WINDOWS);
    const res = await app.graphql<{
      enrollmentRestrictions: { items: Array<{ name: string }>; pageInfo: { total: number } };
    }>(
      org.keys.read,
      'query($t: UUID!) { enrollmentRestrictions(tenantId: $t) { items { name priority isDefault } pageInfo { total } } }',
      { t: tenant.id },
    );
    expect(res.body.data?.enrollmentRestrictions).toEqual({
      items: [
        { name: 'No Windows', priority: 1, isDefault: false },
        { name: 'All users and all devices', priority: 2, isDefault: true },
      ],
      pageInfo: { total: 2 },
    });
  });

  it('is paginated (SPEC 8.2): meta counts the default, which comes last on the last page', async () => {
    const tenant = await createTenant(app, org.scope);
    for (const name of ['First', 'Second', 'Third'])
      await createPolicy(app, org.keys.write, tenant, { ...BLOCK_WINDOWS, name });
    const pageOf = (query: string) =>
      api<PolicyBody[]>(app, 'GET', `${RESTRICTIONS}?${query}`, { key: org.keys.read, tenantId: tenant.id });
    const first = await pageOf('limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((policy) => policy.name)).toEqual(['First', 'Second']);
    expect(first.body.meta).toEqual({ page: 1, limit: 2, total: 4 });
    const second = await pageOf('limit=2&page=2');
    expect(second.body.data.map((policy) => [policy.name, policy.isDefault])).toEqual([
      ['Third', false],
      ['All users and all devices', true],
    ]);
    expect((await pageOf('limit=2&page=3')).body.data).toEqual([]);
  });

  it('a tenant with nothing stored: the default alone on page 1, total 1 on every page', async () => {
    const tenant = await createTenant(app, org.scope);
    const pageOf = (page: number) =>
      api<PolicyBody[]>(app, 'GET', `${RESTRICTIONS}?page=${page}`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
    const [first, second] = [await pageOf(1), await pageOf(2)];
    expect(first.body.data.map((policy) => policy.isDefault)).toEqual([true]);
    expect(first.body.meta).toEqual({ page: 1, limit: 25, total: 1 });
    expect(second.body.data).toEqual([]);
    expect(second.body.meta).toEqual({ page: 2, limit: 25, total: 1 });
  });

  it('400 naming limit or page out of range, before anything is read', async () => {
    const tenant = await createTenant(app, org.scope);
    for (const query of ['limit=101', 'limit=0', 'page=0', 'limit=abc']) {
      const res = await api(app, 'GET', `${RESTRICTIONS}?${query}`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).map((f) => f.field)).toEqual([query.split('=')[0]]);
    }
  });

  it('400 naming X-Tenant-Id when missing; 404 for another organization’s tenant', async () => {
    const missing = await api(app, 'GET', RESTRICTIONS, { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
    const foreign = await createTenant(app, other.scope);
    const res = await api(app, 'GET', RESTRICTIONS, { key: org.keys.read, tenantId: foreign.id });
    expect(res.status).toBe(404);
    expect(await rowCount(app, 'enrollment_restrictions', foreign.id)).toBe(0);
  });
});

describe('POST /api/devices/enrollment-restrictions', () => {
  it('creates a device type restriction just above the default, every platform listed, with an ETag', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await api<PolicyBody>(app, 'POST', RESTRICTIONS, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: {
        ...BLOCK_WINDOWS,
        platformRestrictions: [
          { platform: 'Windows MDM', allowed: false },
          { platform: 'iOS/iPadOS', allowed: true, personalAllowed: false, minOsVersion: '17.4' },
          { platform: 'Android Enterprise', allowed: true, blockedManufacturers: ['Huawei'] },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data).toMatchObject({ priority: 1, version: 1, isDefault: false, deviceLimit: null });
    expect(res.body.data.platformRestrictions.map((r) => r.platform)).toEqual([
      'Windows MDM',
      'macOS',
      'iOS/iPadOS',
      'Android Enterprise',
      'Android Device Admin',
    ]);
    expect(res.body.data.platformRestrictions[2]).toEqual({
      platform: 'iOS/iPadOS',
      allowed: true,
      corporateAllowed: true,
      personalAllowed: false,
      minOsVersion: '17.4',
      maxOsVersion: null,
      blockedManufacturers: [],
    });
    const second = await createPolicy(app, org.keys.write, tenant, { ...BLOCK_WINDOWS, name: 'Second' });
    expect(second.priority).toBe(2);
    const list = await api<PolicyBody[]>(app, 'GET', RESTRICTIONS, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(list.body.data.map((p) => [p.name, p.priority])).toEqual([
      ['No Windows', 1],
      ['Second', 2],
      ['All users and all devices', 3],
    ]);
  });

  it('creates a device limit restriction for groups of the tenant, with group overrides (GraphQL)', async () => {
    const tenant = await createTenant(app, org.scope);
    const staff = await createGroup(app, tenant);
    const execs = await createGroup(app, tenant);
    const res = await app.graphql<{
      createEnrollmentRestriction: {
        restrictionType: string;
        groupIds: string[];
        deviceLimit: number | null;
        platformLimits: Array<{ platform: string; limit: number }>;
        groupOverrides: Array<{ groupId: string; deviceLimit: number }>;
      };
    }>(
      org.keys.write,
      `mutation($t: UUID!, $input: CreateEnrollmentRestrictionInput!) {
        createEnrollmentRestriction(tenantId: $t, input: $input) {
          restrictionType groupIds deviceLimit platformLimits { platform limit } groupOverrides { groupId deviceLimit }
        } }`,
      {
        t: tenant.id,
        input: {
          name: 'Staff limits',
          restrictionType: 'DEVICE_LIMIT',
          groupIds: [staff.id],
          deviceLimit: 3,
          platformLimits: [{ platform: 'ANDROID', limit: 1 }],
          groupOverrides: [{ groupId: execs.id, deviceLimit: 10 }],
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.createEnrollmentRestriction).toEqual({
      restrictionType: 'DEVICE_LIMIT',
      groupIds: [staff.id],
      deviceLimit: 3,
      platformLimits: [{ platform: 'ANDROID', limit: 1 }],
      groupOverrides: [{ groupId: execs.id, deviceLimit: 10 }],
    });
  });

  it.each([
    [
      'a manufacturer block list outside Android',
      { platformRestrictions: [{ platform: 'iOS/iPadOS', allowed: true, blockedManufacturers: ['Apple'] }] },
      'platformRestrictions[0].blockedManufacturers',
    ],
    [
      'a version that is no version',
      { platformRestrictions: [{ platform: 'macOS', allowed: true, minOsVersion: 'fourteen' }] },
      'platformRestrictions[0].minOsVersion',
    ],
    [
      'a minimum above the maximum (as versions: 17.10 > 17.4)',
      {
        platformRestrictions: [
          { platform: 'iOS/iPadOS', allowed: true, minOsVersion: '17.10', maxOsVersion: '17.4' },
        ],
      },
      'platformRestrictions[0].minOsVersion',
    ],
    [
      'a platform twice',
      {
        platformRestrictions: [
          { platform: 'macOS', allowed: true },
          { platform: 'macOS', allowed: false },
        ],
      },
      'platformRestrictions[1].platform',
    ],
    ['no assignment', { assignedToAllUsers: false }, 'groupIds'],
    [
      'a group of no tenant',
      { assignedToAllUsers: false, groupIds: ['00000000-0000-4000-8000-000000000001'] },
      'groupIds[0]',
    ],
    ['a blank name', { name: '  ' }, 'name'],
    ['a limit on a device type restriction', { deviceLimit: 3 }, 'deviceLimit'],
    [
      'a device limit of 16',
      { restrictionType: 'Device Limit Restrictions', platformRestrictions: [], deviceLimit: 16 },
      'deviceLimit',
    ],
    [
      'a platform limit of 0',
      {
        restrictionType: 'Device Limit Restrictions',
        platformRestrictions: [],
        deviceLimit: 5,
        platformLimits: [{ platform: 'iOS', limit: 0 }],
      },
      'platformLimits[0].limit',
    ],
  ])('400 for %s, naming the field, nothing written', async (_name, change, field) => {
    const tenant = await createTenant(app, org.scope);
    const res = await api(app, 'POST', RESTRICTIONS, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...BLOCK_WINDOWS, ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(fieldsOf(res.body).map((f) => f.field)).toContain(field);
    expect(await rowCount(app, 'enrollment_restrictions', tenant.id)).toBe(0);
  });

  it('a group of another tenant of the organization is refused', async () => {
    const tenant = await createTenant(app, org.scope);
    const elsewhere = await createGroup(app, await createTenant(app, org.scope));
    const res = await api(app, 'POST', RESTRICTIONS, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { ...BLOCK_WINDOWS, assignedToAllUsers: false, groupIds: [elsewhere.id] },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual([{ field: 'groupIds[0]', problem: 'is not a group of the tenant' }]);
  });

  it('a Read key is refused (403) before the body is looked at; another organization’s tenant is 404', async () => {
    const tenant = await createTenant(app, org.scope);
    const read = await api(app, 'POST', RESTRICTIONS, { key: org.keys.read, tenantId: tenant.id, body: {} });
    expect(read.status).toBe(403);
    const foreign = await api(app, 'POST', RESTRICTIONS, {
      key: other.keys.write,
      tenantId: tenant.id,
      body: BLOCK_WINDOWS,
    });
    expect(foreign.status).toBe(404);
    expect(await rowCount(app, 'enrollment_restrictions', tenant.id)).toBe(0);
  });
});

describe('PUT /api/devices/enrollment-restrictions/:id', () => {
  it('changes the fields given, bumps the version and the ETag; If-Match with a stale version is 412', async () => {
    const tenant = await createTenant(app, org.scope);
    const policy = await createPolicy(app, org.keys.write, tenant, BLOCK_WINDOWS);
    const first = await api<PolicyBody>(app, 'PUT', `${RESTRICTIONS}/${policy.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      headers: { 'If-Match': '"1"' },
      body: { name: 'Renamed', platformRestrictions: [{ platform: 'macOS', allowed: false }] },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    expect(first.body.data).toMatchObject({ name: 'Renamed', version: 2, assignedToAllUsers: true });
    expect(first.body.data.platformRestrictions.find((r) => r.platform === 'macOS')?.allowed).toBe(false);
    expect(first.body.data.platformRestrictions.find((r) => r.platform === 'Windows MDM')?.allowed).toBe(
      true,
    );
    // A second admin still holding version 1 is refused, and nothing changes.
    const stale = await api(app, 'PUT', `${RESTRICTIONS}/${policy.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      headers: { 'If-Match': '"1"' },
      body: { name: 'Lost update' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { currentVersion: 2 } });
    const { rows } = await app.pool.query('select name, version from enrollment_restrictions where id = $1', [
      policy.id,
    ]);
    expect(rows[0]).toEqual({ name: 'Renamed', version: 2 });
    // Weak ETags and the GraphQL argument work the same way.
    const gql = await app.graphql<{ updateEnrollmentRestriction: { version: number } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { updateEnrollmentRestriction(tenantId: $t, id: $id, ifMatch: "W/\\"2\\"",
        input: { description: "why" }) { version } }`,
      { t: tenant.id, id: policy.id },
    );
    expect(gql.body.data?.updateEnrollmentRestriction.version).toBe(3);
    const gqlStale = await app.graphql(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { updateEnrollmentRestriction(tenantId: $t, id: $id, ifMatch: "2",
        input: { description: "again" }) { version } }`,
      { t: tenant.id, id: policy.id },
    );
    expect(gqlStale.body.errors?.[0].extensions.code).toBe('PRECONDITION_FAILED');
  });

  it('the default can be edited but stays for all users; bad input is 400 with nothing written', async () => {
    const tenant = await createTenant(app, org.scope);
    const group = await createGroup(app, tenant);
    const list = await api<PolicyBody[]>(app, 'GET', RESTRICTIONS, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    const fallback = list.body.data[0];
    const edited = await api<PolicyBody>(app, 'PUT', `${RESTRICTIONS}/${fallback.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { deviceLimit: 10, groupOverrides: [{ groupId: group.id, deviceLimit: 12 }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ isDefault: true, deviceLimit: 10, version: 2 });
    for (const [body, field] of [
      [{ groupIds: [group.id] }, 'groupIds'],
      [{ assignedToAllUsers: false }, 'assignedToAllUsers'],
      [{ deviceLimit: 0 }, 'deviceLimit'],
      [{ platformRestrictions: [{ platform: 'macOS', allowed: false }] }, 'platformRestrictions'],
    ] as const) {
      const res = await api(app, 'PUT', `${RESTRICTIONS}/${fallback.id}`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body,
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).map((f) => f.field)).toContain(field);
    }
    const { rows } = await app.pool.query(
      'select device_limit, version, assigned_to_all_users from enrollment_restrictions where id = $1',
      [fallback.id],
    );
    expect(rows[0]).toEqual({ device_limit: 10, version: 2, assigned_to_all_users: true });
  });

  it('404 for a policy of another tenant or organization; 400 naming If-Match when it is no version', async () => {
    const tenant = await createTenant(app, org.scope);
    const policy = await createPolicy(app, org.keys.write, tenant, BLOCK_WINDOWS);
    const otherTenant = await createTenant(app, org.scope);
    const wrongTenant = await api(app, 'PUT', `${RESTRICTIONS}/${policy.id}`, {
      key: org.keys.write,
      tenantId: otherTenant.id,
      body: { name: 'x' },
    });
    expect(wrongTenant.status).toBe(404);
    const foreignTenant = await createTenant(app, other.scope);
    const crossOrg = await api(app, 'PUT', `${RESTRICTIONS}/${policy.id}`, {
      key: other.keys.write,
      tenantId: foreignTenant.id,
      body: { name: 'x' },
    });
    expect(crossOrg.status).toBe(404);
    const badHeader = await api(app, 'PUT', `${RESTRICTIONS}/${policy.id}`, {
      key: org.keys.write,
      tenantId: tenant.id,
      headers: { 'If-Match': 'yesterday' },
      body: { name: 'x' },
    });
    expect(badHeader.status).toBe(400);
    expect(fieldsOf(badHeader.body).map((f) => f.field)).toEqual(['If-Match']);
  });
});

describe('PUT /api/devices/enrollment-restrictions/priority', () => {
  async function threePolicies() {
    const tenant = await createTenant(app, org.scope);
    const policies = [];
    for (const name of ['A', 'B', 'C'])
      policies.push(await createPolicy(app, org.keys.write, tenant, { ...BLOCK_WINDOWS, name }));
    return { tenant, ids: policies.map((p) => p.id) };
  }

  it('reorders atomically; the default stays last; versions do not move', async () => {
    const { tenant, ids } = await threePolicies();
    const res = await api<PolicyBody[]>(app, 'PUT', `${RESTRICTIONS}/priority`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { policyIds: [ids[2], ids[0], ids[1]] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p) => [p.name, p.priority, p.version])).toEqual([
      ['C', 1, 1],
      ['A', 2, 1],
      ['B', 3, 1],
      ['All users and all devices', 4, 1],
    ]);
    const gql = await app.graphql<{ reorderEnrollmentRestrictions: Array<{ name: string }> }>(
      org.keys.write,
      'mutation($t: UUID!, $ids: [UUID!]!) { reorderEnrollmentRestrictions(tenantId: $t, policyIds: $ids) { name } }',
      { t: tenant.id, ids },
    );
    expect(gql.body.data?.reorderEnrollmentRestrictions.map((p) => p.name)).toEqual([
      'A',
      'B',
      'C',
      'All users and all devices',
    ]);
  });

  it('a partial or stale list is 409 (nothing changes); a duplicate, the default or an unknown id is 400', async () => {
    const { tenant, ids } = await threePolicies();
    const order = async () =>
      (
        await app.pool.query<{ id: string }>(
          'select id from enrollment_restrictions where tenant_id = $1 order by is_default, priority',
          [tenant.id],
        )
      ).rows.map((row) => row.id);
    const before = await order();
    const partial = await api(app, 'PUT', `${RESTRICTIONS}/priority`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { policyIds: [ids[1], ids[0]] },
    });
    expect(partial.status).toBe(409);
    expect(partial.body.error?.details).toMatchObject({ missing: [ids[2]] });
    // Another admin read the list, then someone created a policy: the old list is stale.
    const created = await createPolicy(app, org.keys.write, tenant, { ...BLOCK_WINDOWS, name: 'D' });
    const stale = await api(app, 'PUT', `${RESTRICTIONS}/priority`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { policyIds: [ids[2], ids[1], ids[0]] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.details).toMatchObject({ missing: [created.id] });
    const defaultId = before[3];
    for (const [policyIds, field] of [
      [[ids[0], ids[0], ids[1], ids[2], created.id], 'policyIds[1]'],
      [[...ids, created.id, defaultId], 'policyIds[4]'],
      [[...ids, created.id, '00000000-0000-4000-8000-000000000009'], 'policyIds[4]'],
    ] as const) {
      const res = await api(app, 'PUT', `${RESTRICTIONS}/priority`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: { policyIds },
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).map((f) => f.field)).toEqual([field]);
    }
    expect((await order()).filter((id) => id !== created.id)).toEqual(before);
  });

  it('two admins reordering at once with the same list: both succeed or one is refused, never a lost policy', async () => {
    const { tenant, ids } = await threePolicies();
    const results = await Promise.all([
      api(app, 'PUT', `${RESTRICTIONS}/priority`, {
        key: org.keys.write,
        tenantId: tenant.id,
        body: { policyIds: [ids[1], ids[2], ids[0]] },
      }),
      createPolicy(app, org.keys.write, tenant, { ...BLOCK_WINDOWS, name: 'Racer' }),
    ]);
    const { rows } = await app.pool.query<{ priority: number }>(
      'select priority from enrollment_restrictions where tenant_id = $1 order by priority',
      [tenant.id],
    );
    // Priorities stay 1..n+1 without a gap or a tie, whichever came first.
    expect(rows.map((row) => row.priority)).toEqual([1, 2, 3, 4, 5]);
    expect([200, 409]).toContain(results[0].status);
  });
});
