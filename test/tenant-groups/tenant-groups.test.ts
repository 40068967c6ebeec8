import type { Tenant as TenantRow } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import { type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { CONTROL_IDS, postureTenant } from '../security-posture/posture-kit.js';
import { recountMarked } from '../tenants/health-kit.js';
import type { DataOf } from '../helpers/api-types.js';

const GROUPS = '/api/msp-portal/tenant-groups';
const HOUR_MS = 60 * 60 * 1000;

type GroupBody = DataOf<'getTenantGroup'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenants: TenantRow[];
let foreignTenant: TenantRow;

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ other: true }));
  const ago = (ms: number) => new Date(app.clock.now().getTime() - ms);
  tenants = [
    await createTenant(app, org.scope, { name: 'Alpha', lastSyncedAt: ago(HOUR_MS) }),
    await createTenant(app, org.scope, { name: 'Bravo', lastSyncedAt: ago(30 * HOUR_MS) }),
    await createTenant(app, org.scope, { name: 'Charlie', lastSyncedAt: null }),
  ];
  foreignTenant = await createTenant(app, other.scope, { name: 'Foreign' });
});
afterAll(() => app.stop());

const ids = (list: TenantRow[]) => list.map((tenant) => tenant.id).sort();

async function createGroup(name: string, tenantIds: string[] = [], key = org.keys.write): Promise<GroupBody> {
  const res = await app.request<Envelope<GroupBody>>('POST', GROUPS, { key, body: { name, tenantIds } });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** Groups in both of this file's organizations (other files' are in the same table). */
async function groupCount(): Promise<number> {
  return count('select count(*)::int as n from tenant_groups where organization_id = any($1::uuid[])', [
    [org.organization.id, other.organization.id],
  ]);
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(sql, params);
  return rows[0].n;
}

describe('tenant group CRUD (REST)', () => {
  it('creates, reads, renames, changes members and deletes; the tenants stay', async () => {
    const created = await createGroup('Healthcare', [tenants[0].id, tenants[1].id]);
    expect(created).toMatchObject({ name: 'Healthcare', description: null, tenantCount: 2 });
    expect(created.tenantIds).toEqual(ids([tenants[0], tenants[1]]));

    const got = await app.request<Envelope<GroupBody>>('GET', `${GROUPS}/${created.id}`, {
      key: org.keys.read,
    });
    expect(got.body.data).toEqual(created);

    const renamed = await app.request<Envelope<GroupBody>>('PATCH', `${GROUPS}/${created.id}`, {
      key: org.keys.write,
      body: { name: 'Clinics', description: 'Dental and GP practices' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Clinics', description: 'Dental and GP practices' });

    const added = await app.request<Envelope<GroupBody>>('POST', `${GROUPS}/${created.id}/members`, {
      key: org.keys.write,
      body: { tenantIds: [tenants[2].id, tenants[0].id] }, // tenants[0] is already in: stays once
    });
    expect(added.body.data.tenantIds).toEqual(ids(tenants));
    // Every DELETE needs an Admin key (DECISIONS): a Write key gets 403 and the group keeps its members.
    const refused = await app.request('DELETE', `${GROUPS}/${created.id}/members`, {
      key: org.keys.write,
      body: { tenantIds: [tenants[1].id] },
    });
    expect(refused.status).toBe(403);
    const removed = await app.request<Envelope<GroupBody>>('DELETE', `${GROUPS}/${created.id}/members`, {
      key: org.keys.admin,
      body: { tenantIds: [tenants[1].id] },
    });
    expect(removed.body.data.tenantIds).toEqual(ids([tenants[0], tenants[2]]));

    expect((await app.request('DELETE', `${GROUPS}/${created.id}`, { key: org.keys.write })).status).toBe(
      403,
    );
    const deleted = await app.request<Envelope<GroupBody>>('DELETE', `${GROUPS}/${created.id}`, {
      key: org.keys.admin,
    });
    expect(deleted.status).toBe(200);
    expect((await app.request('GET', `${GROUPS}/${created.id}`, { key: org.keys.read })).status).toBe(404);
    expect(
      await count('select count(*)::int as n from tenant_group_members where group_id = $1', [created.id]),
    ).toBe(0);
    expect(
      await count('select count(*)::int as n from tenants where id = any($1::uuid[])', [ids(tenants)]),
    ).toBe(3);
  });

  it('lets a tenant be in several groups, and lists groups newest first with the same SQL at any page size', async () => {
    const first = await createGroup('Ring 1', [tenants[0].id]);
    app.clock.advance(1000);
    const second = await createGroup('Ring 2', [tenants[0].id, tenants[1].id]);
    app.clock.advance(1000);
    await createGroup('Ring 3', [tenants[2].id]);
    const list = async (limit: number) => {
      const res = await app.request<Envelope<GroupBody[]>>('GET', `${GROUPS}?limit=${limit}`, {
        key: org.keys.read,
      });
      expect(res.status).toBe(200);
      return res.body;
    };
    await list(1); // warm the key cache
    const small = await app.sql.during(() => list(1));
    const large = await app.sql.during(() => list(3));
    expect(large).toEqual(small);
    const page = await list(3);
    expect(page.data.map((group) => group.name)).toEqual(['Ring 3', 'Ring 2', 'Ring 1']);
    expect(page.meta).toEqual({ page: 1, limit: 3, total: 3 });
    expect(page.data.find((group) => group.id === first.id)?.tenantIds).toEqual([tenants[0].id]);
    expect(page.data.find((group) => group.id === second.id)?.tenantCount).toBe(2);
  });

  it('refuses bad input with 400 naming the field, and writes nothing', async () => {
    const before = await groupCount();
    for (const [body, field] of [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'Fine', description: 'y'.repeat(501) }, 'description'],
      [{ name: 'Fine', tenantIds: ['not-a-uuid'] }, 'tenantIds'],
    ] as const) {
      const res = await app.request<Envelope>('POST', GROUPS, { key: org.keys.write, body });
      expect(res.status).toBe(400);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      expect(JSON.stringify(res.body.error?.details.fields)).toContain(field);
    }
    expect(await groupCount()).toBe(before);
  });

  it('answers 409 for a name already taken (case-insensitively)', async () => {
    await createGroup('Retail');
    const res = await app.request<Envelope>('POST', GROUPS, {
      key: org.keys.write,
      body: { name: 'RETAIL' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error?.code).toBe('CONFLICT');
  });

  it("answers 404 for another organization's group or tenant, and writes nothing", async () => {
    const theirs = await createGroup('Theirs', [foreignTenant.id], other.keys.write);
    for (const [method, path, body] of [
      ['GET', `${GROUPS}/${theirs.id}`, undefined],
      ['PATCH', `${GROUPS}/${theirs.id}`, { name: 'Mine now' }],
      ['DELETE', `${GROUPS}/${theirs.id}`, undefined],
      ['POST', `${GROUPS}/${theirs.id}/members`, { tenantIds: [tenants[0].id] }],
    ] as const) {
      const res = await app.request<Envelope>(method, path, { key: org.keys.admin, body });
      expect(res.status).toBe(404);
    }
    const before = await groupCount();
    const foreignMember = await app.request<Envelope>('POST', GROUPS, {
      key: org.keys.write,
      body: { name: 'With a foreign tenant', tenantIds: [foreignTenant.id] },
    });
    expect(foreignMember.status).toBe(404);
    expect(await groupCount()).toBe(before);
    const still = await app.request<Envelope<GroupBody>>('GET', `${GROUPS}/${theirs.id}`, {
      key: other.keys.read,
    });
    expect(still.body.data).toMatchObject({ name: 'Theirs', tenantIds: [foreignTenant.id] });
  });

  it('needs write:tenants to change: a Read key gets 403 and nothing is written', async () => {
    const before = await groupCount();
    const res = await app.request<Envelope>('POST', GROUPS, { key: org.keys.read, body: { name: 'Nope' } });
    expect(res.status).toBe(403);
    expect(await groupCount()).toBe(before);
    const admin = await createGroup('By admin', [], org.keys.admin);
    expect(admin.name).toBe('By admin');
  });
});

describe('tenant groups through GraphQL', () => {
  it('creates, lists and deletes', async () => {
    const created = await app.graphql<{
      createTenantGroup: { id: string; name: string; tenantIds: string[]; tenantCount: number };
    }>(
      org.keys.write,
      'mutation ($input: CreateTenantGroupInput!) { createTenantGroup(input: $input) { id name tenantIds tenantCount } }',
      { input: { name: 'GraphQL group', tenantIds: [tenants[1].id] } },
    );
    expect(created.body.errors).toBeUndefined();
    const group = created.body.data!.createTenantGroup;
    expect(group).toMatchObject({ name: 'GraphQL group', tenantIds: [tenants[1].id], tenantCount: 1 });
    const bad = await app.graphql(
      org.keys.write,
      'mutation { createTenantGroup(input: { name: "" }) { id } }',
    );
    expect(bad.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    const read = await app.graphql<{ tenantGroup: { name: string } }>(
      org.keys.read,
      'query ($id: UUID!) { tenantGroup(id: $id) { name } }',
      { id: group.id },
    );
    expect(read.body.data?.tenantGroup.name).toBe('GraphQL group');
    const foreign = await app.graphql(
      other.keys.read,
      'query ($id: UUID!) { tenantGroup(id: $id) { name } }',
      {
        id: group.id,
      },
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const deleted = await app.graphql(
      org.keys.admin,
      'mutation ($id: UUID!) { deleteTenantGroup(id: $id) { id } }',
      {
        id: group.id,
      },
    );
    expect(deleted.body.errors).toBeUndefined();
  });
});

describe('the tenantGroupId filter', () => {
  let group: GroupBody;
  let foreignGroup: GroupBody;

  beforeAll(async () => {
    group = await createGroup('Filter', [tenants[1].id, tenants[2].id]);
    foreignGroup = await createGroup('Foreign filter', [foreignTenant.id], other.keys.write);
  });

  it('narrows /v1/tenants and GraphQL tenants to the members', async () => {
    const res = await app.request<Envelope<Array<{ id: string }>>>(
      'GET',
      `/v1/tenants?tenantGroupId=${group.id}`,
      {
        key: org.keys.read,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((tenant) => tenant.id).sort()).toEqual(ids([tenants[1], tenants[2]]));
    expect(res.body.meta?.total).toBe(2);
    const gql = await app.graphql<{ tenants: { items: Array<{ id: string }> } }>(
      org.keys.read,
      'query ($g: UUID) { tenants(tenantGroupId: $g) { items { id } } }',
      { g: group.id },
    );
    expect(gql.body.data?.tenants.items.map((tenant) => tenant.id).sort()).toEqual(
      ids([tenants[1], tenants[2]]),
    );
  });

  it('narrows the portal views', async () => {
    await recountMarked(app); // the one-minute job
    const all = await app.request<Envelope<Record<string, number>>>('GET', '/api/msp-portal/tenants/stats', {
      key: org.keys.read,
    });
    expect(all.body.data).toMatchObject({ total_tenants: 3, healthy_count: 1 });
    const res = await app.request<Envelope<Record<string, number>>>(
      'GET',
      `/api/msp-portal/tenants/stats?tenantGroupId=${group.id}`,
      { key: org.keys.read },
    );
    expect(res.body.data).toEqual({
      total_tenants: 2,
      healthy_count: 0,
      warning_count: 1,
      critical_count: 1,
    });
    const summary = await app.request<Envelope<{ totals: { tenants: number } }>>(
      'GET',
      `/api/msp-portal/license-intelligence/summary?tenantGroupId=${group.id}`,
      { key: org.keys.read },
    );
    expect(summary.status).toBe(200);
    expect(summary.body.data.totals.tenants).toBe(0);
  });

  it('narrows recommendations to the members', async () => {
    const outside = await postureTenant(app, org.scope, [CONTROL_IDS[0]]);
    const inside = await postureTenant(app, org.scope, [CONTROL_IDS[0]]);
    const withRecommendations = await createGroup('Posture', [inside.id]);
    const res = await app.request<Envelope<Array<{ id: string; affectedTenants: { tenantIds: string[] } }>>>(
      'GET',
      `/api/security/recommendations?tenantGroupId=${withRecommendations.id}`,
      { key: org.keys.read },
    );
    expect(res.status).toBe(200);
    const tenantIds = res.body.data.flatMap((recommendation) => recommendation.affectedTenants.tenantIds);
    expect(tenantIds).toContain(inside.id);
    expect(tenantIds).not.toContain(outside.id);
  });

  it("answers 404 for another organization's group, on every filtered view", async () => {
    for (const path of [
      `/v1/tenants?tenantGroupId=${foreignGroup.id}`,
      `/api/msp-portal/tenants/stats?tenantGroupId=${foreignGroup.id}`,
      `/api/msp-portal/license-intelligence/summary?tenantGroupId=${foreignGroup.id}`,
      `/api/security/recommendations?tenantGroupId=${foreignGroup.id}`,
      `/api/msp-portal/users/search?q=anyone&tenantGroupId=${foreignGroup.id}`,
    ]) {
      const res = await app.request<Envelope>('GET', path, { key: org.keys.admin });
      expect([path, res.status]).toEqual([path, 404]);
    }
  });
});
