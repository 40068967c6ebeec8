import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { DAY_MS } from '../../src/core/clock.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { addCloudDevices, api, fieldsOf, sync } from './device-management-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenants: Tenant[];

const PLATFORMS = ['Windows', 'macOS', 'iOS', 'Android', 'Linux'] as const;
const STATES = ['Compliant', 'Non-Compliant', 'In Grace Period', 'Not Evaluated'] as const;
const OWNERSHIPS = ['Corporate', 'Personal'] as const;

/** Two tenants of the organization with a spread of devices (and one of another organization), via sync. */
beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ other: true }));
  tenants = [await createTenant(app, org.scope), await createTenant(app, org.scope)];
  const now = app.clock.now().getTime();
  for (const [t, tenant] of tenants.entries()) {
    const devices = [];
    for (let i = 0; i < 24 + t * 7; i++) {
      const state = STATES[(i + t) % STATES.length];
      devices.push({
        osPlatform: PLATFORMS[i % PLATFORMS.length],
        ownership: OWNERSHIPS[(i >> 1) % 2],
        complianceState: state,
        complianceGraceExpiresAt:
          state === 'In Grace Period' ? new Date(now + (1 + (i % 3)) * DAY_MS).toISOString() : null,
        enrolledAt: new Date(now - (i % 20) * DAY_MS - 3_600_000).toISOString(),
      });
    }
    await addCloudDevices(app, tenant, devices);
    await sync(app, org.scope, tenant.id);
  }
  const foreign = await createTenant(app, other.scope);
  await addCloudDevices(app, foreign, [{ osPlatform: 'Windows' }, { osPlatform: 'iOS' }]);
  await sync(app, other.scope, foreign.id);
}, 60_000);
afterAll(() => app.stop());

interface Filter {
  tenantId?: string;
  platform?: string;
  ownership?: string;
  complianceState?: string;
}

/** The direct SQL recount the dashboards must equal: devices of the organization's sandbox matching the filter. */
async function recount(filter: Filter, extra = '', extraParams: unknown[] = []) {
  const { rows } = await app.pool.query<{ os_platform: string; compliance_state: string; n: number }>(
    `select os_platform, compliance_state, count(*)::int as n from devices
      where organization_id = $1 and environment = 'sandbox'
        and ($2::uuid is null or tenant_id = $2) and ($3::text is null or os_platform = $3)
        and ($4::text is null or ownership = $4) and ($5::text is null or compliance_state = $5) ${extra}
      group by 1, 2`,
    [
      org.organization.id,
      filter.tenantId ?? null,
      filter.platform ?? null,
      filter.ownership ?? null,
      filter.complianceState ?? null,
      ...extraParams,
    ],
  );
  const count = (where: (row: (typeof rows)[number]) => boolean) =>
    rows.filter(where).reduce((sum, row) => sum + row.n, 0);
  return { rows, count };
}

function query(filter: Filter): string {
  const params = new URLSearchParams();
  for (const key of ['platform', 'ownership', 'complianceState'] as const)
    if (filter[key]) params.set(key, filter[key]!);
  return params.toString() ? `?${params}` : '';
}

function get<T>(path: string, filter: Filter, key = org.keys.read) {
  return api<T>(app, 'GET', `/device-management-vendor/dashboard${path}${query(filter)}`, {
    key,
    tenantId: filter.tenantId,
  });
}

const FILTERS: Array<[string, () => Filter]> = [
  ['no filter (every tenant of the organization)', () => ({})],
  ['one tenant', () => ({ tenantId: tenants[0].id })],
  ['platform', () => ({ platform: 'iOS' })],
  ['ownership', () => ({ ownership: 'Personal' })],
  ['compliance state', () => ({ complianceState: 'In Grace Period' })],
  [
    'all of them',
    () => ({
      tenantId: tenants[1].id,
      platform: 'Windows',
      ownership: 'Personal',
      complianceState: 'Compliant',
    }),
  ],
];

describe.each(FILTERS)('device dashboards with %s equal a direct SQL recount', (_name, filterOf) => {
  it('GET /dashboard', async () => {
    const filter = filterOf();
    const { count } = await recount(filter);
    const res = await get<Record<string, number>>('', filter);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      total: count(() => true),
      compliant: count((r) => r.compliance_state === 'Compliant'),
      nonCompliant: count((r) => r.compliance_state === 'Non-Compliant'),
      inGracePeriod: count((r) => r.compliance_state === 'In Grace Period'),
      notEvaluated: count((r) => r.compliance_state === 'Not Evaluated'),
    });
    expect(res.body.data.total).toBeGreaterThan(0);
  });

  it('GET /dashboard/compliance', async () => {
    const filter = filterOf();
    const { count } = await recount(filter);
    const res = await get<{
      byState: Array<{ state: string; count: number }>;
      byPlatform: Array<{ platform: string; label: string; total: number; compliant: number }>;
    }>('/compliance', filter);
    expect(res.body.data.byState).toEqual(
      STATES.map((state) => ({ state, count: count((r) => r.compliance_state === state) })),
    );
    expect(res.body.data.byPlatform.map((p) => [p.label, p.total, p.compliant])).toEqual(
      PLATFORMS.map((platform) => [
        platform === 'iOS' ? 'iOS/iPadOS' : platform,
        count((r) => r.os_platform === platform),
        count((r) => r.os_platform === platform && r.compliance_state === 'Compliant'),
      ]),
    );
  });

  it('GET /dashboard/platforms', async () => {
    const filter = filterOf();
    const { count } = await recount(filter);
    const res = await get<{
      total: number;
      platforms: Array<{ platform: string; count: number; percentage: number }>;
    }>('/platforms', filter);
    const total = count(() => true);
    expect(res.body.data.total).toBe(total);
    expect(res.body.data.platforms.map((p) => [p.platform, p.count])).toEqual(
      PLATFORMS.map((platform) => [platform, count((r) => r.os_platform === platform)]),
    );
    for (const share of res.body.data.platforms)
      expect(share.percentage).toBeCloseTo(total === 0 ? 0 : (100 * share.count) / total, 1);
  });

  it('GET /dashboard/enrollment (per day over the last 30 days, and per week)', async () => {
    const filter = filterOf();
    const to = app.clock.now();
    const from = new Date(to.getTime() - 30 * DAY_MS);
    const { rows } = await app.pool.query<{ day: string; n: number }>(
      `select to_char(enrolled_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n from devices
        where organization_id = $1 and environment = 'sandbox' and ($2::uuid is null or tenant_id = $2)
          and ($3::text is null or os_platform = $3) and ($4::text is null or ownership = $4)
          and ($5::text is null or compliance_state = $5) and enrolled_at >= $6 and enrolled_at < $7 group by 1`,
      [
        org.organization.id,
        filter.tenantId ?? null,
        filter.platform ?? null,
        filter.ownership ?? null,
        filter.complianceState ?? null,
        from,
        to,
      ],
    );
    const res = await get<{ total: number; points: Array<{ periodStart: string; count: number }> }>(
      '/enrollment',
      filter,
    );
    expect(res.status).toBe(200);
    const byDay = Object.fromEntries(res.body.data.points.map((p) => [p.periodStart.slice(0, 10), p.count]));
    expect(Object.fromEntries(Object.entries(byDay).filter(([, n]) => n > 0))).toEqual(
      Object.fromEntries(rows.map((row) => [row.day, row.n])),
    );
    expect(res.body.data.points).toHaveLength(31);
    const weekly = await api<{ total: number; points: Array<{ periodStart: string }> }>(
      app,
      'GET',
      `/device-management-vendor/dashboard/enrollment${query(filter) || '?'}&interval=week&from=${from.toISOString()}&to=${to.toISOString()}`,
      { key: org.keys.read, tenantId: filter.tenantId },
    );
    expect(weekly.body.data.total).toBe(res.body.data.total);
    // Weeks start on Monday.
    expect(weekly.body.data.points.every((p) => new Date(p.periodStart).getUTCDay() === 1)).toBe(true);
  });
});

describe('device dashboards: tenancy, input, GraphQL, cost', () => {
  it("?tenantGroupId= keeps the group's tenants (a recount of them); another organization's group is 404", async () => {
    const created = await app.graphql<{ createTenantGroup: { id: string } }>(
      org.keys.write,
      'mutation ($input: CreateTenantGroupInput!) { createTenantGroup(input: $input) { id } }',
      { input: { name: 'Dashboard group', tenantIds: [tenants[1].id] } },
    );
    const groupId = created.body.data!.createTenantGroup.id;
    const { count } = await recount({ tenantId: tenants[1].id });
    const res = await api<{ total: number; compliant: number }>(
      app,
      'GET',
      `/device-management-vendor/dashboard?tenantGroupId=${groupId}`,
      { key: org.keys.read },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(count(() => true));
    expect(res.body.data.compliant).toBe(count((r) => r.compliance_state === 'Compliant'));
    expect(res.body.data.total).toBeLessThan(24 + 31);
    const foreign = await api(app, 'GET', `/device-management-vendor/dashboard?tenantGroupId=${groupId}`, {
      key: other.keys.read,
    });
    expect(foreign.status).toBe(404);
  });

  it('another organization’s tenant is 404; without X-Tenant-Id the other organization’s devices never count', async () => {
    const res = await get('', { tenantId: tenants[0].id }, other.keys.read);
    expect(res.status).toBe(404);
    const mine = await get<{ total: number }>('', {});
    expect(mine.body.data.total).toBe(24 + 31);
    const theirs = await get<{ total: number }>('', {}, other.keys.read);
    expect(theirs.body.data.total).toBe(2);
  });

  it('400 naming the field for a bad filter or range', async () => {
    const badPlatform = await api(app, 'GET', '/device-management-vendor/dashboard?platform=BeOS', {
      key: org.keys.read,
    });
    expect(badPlatform.status).toBe(400);
    expect(fieldsOf(badPlatform.body).map((f) => f.field)).toEqual(['platform']);
    const backwards = await api(
      app,
      'GET',
      '/device-management-vendor/dashboard/enrollment?from=2026-11-01T00:00:00Z&to=2026-10-01T00:00:00Z',
      { key: org.keys.read },
    );
    expect(fieldsOf(backwards.body).map((f) => f.field)).toEqual(['from']);
  });

  it('GraphQL answers the same numbers', async () => {
    const rest = await get<Record<string, number>>('', { platform: 'Android' });
    const gql = await app.graphql<{ deviceDashboard: Record<string, number> }>(
      org.keys.read,
      'query { deviceDashboard(platform: ANDROID) { total compliant nonCompliant inGracePeriod notEvaluated } }',
    );
    expect(gql.body.data?.deviceDashboard).toEqual(rest.body.data);
  });

  it('In Grace Period follows the clock: past the deadline, the next sync makes the device Non-Compliant', async () => {
    const tenant = await createTenant(app, org.scope);
    await createUser(app, tenant);
    const deadline = new Date(app.clock.now().getTime() + 2 * DAY_MS).toISOString();
    await addCloudDevices(app, tenant, [
      { complianceState: 'In Grace Period', complianceGraceExpiresAt: deadline },
      { complianceState: 'Compliant' },
    ]);
    await sync(app, org.scope, tenant.id);
    const before = await get<Record<string, number>>('', { tenantId: tenant.id });
    expect(before.body.data).toMatchObject({ total: 2, inGracePeriod: 1, nonCompliant: 0 });
    app.clock.advance(2 * DAY_MS + 1000);
    try {
      await sync(app, org.scope, tenant.id);
      const after = await get<Record<string, number>>('', { tenantId: tenant.id });
      expect(after.body.data).toMatchObject({ total: 2, inGracePeriod: 0, nonCompliant: 1 });
      const { rows } = await app.pool.query(
        'select compliance_grace_expires_at from devices where tenant_id = $1 and compliance_state = $2',
        [tenant.id, 'Non-Compliant'],
      );
      expect(rows).toEqual([{ compliance_grace_expires_at: null }]);
    } finally {
      app.clock.advance(-(2 * DAY_MS + 1000));
    }
  });

  it.each(['', '/compliance', '/enrollment', '/platforms'])(
    'GET /dashboard%s costs the same statements for one tenant or every tenant, small or large',
    async (path) => {
      const small = await createTenant(app, org.scope);
      await addCloudDevices(app, small, [{ osPlatform: 'Windows' }]);
      await sync(app, org.scope, small.id);
      await get(path, { tenantId: small.id });
      const one = await app.sql.during(() => get(path, { tenantId: small.id }));
      const big = await app.sql.during(() => get(path, { tenantId: tenants[1].id }));
      const all = await app.sql.during(() => get(path, {}));
      expect(one).toBeGreaterThan(0);
      expect(big).toBe(one);
      expect(all).toBeLessThanOrEqual(one);
    },
  );
});
