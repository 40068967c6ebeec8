import { DAY_MS } from '../../src/core/clock.js';
import { Permission } from '../../src/core/permissions.js';
import type { Scope } from '../../src/core/scope.js';
import type { TenantLicense } from '../../src/licenses/license.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import {
  createMember,
  createOAuthClient,
  createOrganizationWithKeys,
  createSku,
  createTenant,
  createUser,
  giveLicense,
  issueAccessToken,
  type OrganizationWithKeys,
  type UserFields,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import type { DataOf } from '../helpers/api-types.js';

// A database of the file's own: the scheduled recount covers every tenant of it. The portal's recounts and the
// sign-in dates are written by the server (onServer).
let app: RealmApp;
let start: Date;

beforeAll(async () => {
  app = await realmApp();
  start = app.clock.now();
});
afterAll(() => app.stop());
afterEach(() => app.clock.set(start));

const HOUR_MS = 60 * 60 * 1000;
const STATS = '/api/msp-portal/tenants/stats';
const SUMMARY = '/api/msp-portal/license-intelligence/summary';

type TenantStatsBody = DataOf<'portalTenantStats'>;
type SummaryBody = DataOf<'licenseIntelligenceSummary'>;

const ago = (ms: number) => new Date(app.clock.now().getTime() - ms);

/** The one-minute job that recounts the tenants our writes marked (reads never recount). */
const recountMarked = () => onServer(app, 'recountMarkedTenants');

async function stats(key: string): Promise<TenantStatsBody> {
  await recountMarked();
  const res = await app.request<Envelope<TenantStatsBody>>('GET', STATS, { key });
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

async function summary(key: string): Promise<SummaryBody> {
  await recountMarked();
  const res = await app.request<Envelope<SummaryBody>>('GET', SUMMARY, { key });
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

/** A user of the tenant holding these SKUs; lastSignInAt as given (the factory leaves it null). */
async function licensedUser(
  tenant: Tenant,
  skus: TenantLicense[],
  fields: UserFields & { lastSignInAt?: Date | null } = {},
): Promise<User> {
  const { lastSignInAt, ...userFields } = fields;
  const user = await createUser(app, tenant, userFields);
  if (lastSignInAt) await onServer(app, 'setLastSignIn', user.id, lastSignInAt);
  for (const sku of skus) await giveLicense(app, tenant, user, sku);
  return user;
}

describe('GET /api/msp-portal/tenants/stats', () => {
  let org: OrganizationWithKeys;

  beforeAll(async () => {
    org = await createOrganizationWithKeys(app);
    await createTenant(app, org.scope, { lastSyncedAt: ago(HOUR_MS) });
    await createTenant(app, org.scope, { lastSyncedAt: ago(30 * HOUR_MS) });
    await createTenant(app, org.scope, { lastSyncedAt: null });
    // Never counted: another organization's tenants, and this organization's live tenants.
    const other = await createOrganizationWithKeys(app);
    await createTenant(app, other.scope);
    await createTenant(app, other.scope, { lastSyncedAt: null });
    await createTenant(app, org.liveScope);
  });

  it("counts the caller's tenants by health, in SPEC's names, with no X-Tenant-Id", async () => {
    await recountMarked();
    const res = await app.request<Envelope<TenantStatsBody>>('GET', STATS, { key: org.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { total_tenants: 3, healthy_count: 1, warning_count: 1, critical_count: 1 },
      meta: { dataAsOf: start.toISOString() },
    });
    // Also under /v1/api.
    expect((await app.request<Envelope>('GET', `/v1${STATS}`, { key: org.keys.read })).body.data).toEqual(
      res.body.data,
    );
  });

  it('follows the clock: syncs grow stale (24 h warning, 72 h critical, docs/tenant-health.md)', async () => {
    app.clock.advance(48 * HOUR_MS); // 1 h → 49 h (warning), 30 h → 78 h (critical)
    expect(await stats(org.keys.read)).toEqual({
      total_tenants: 3,
      healthy_count: 0,
      warning_count: 1,
      critical_count: 2,
    });
    app.clock.set(start);
    app.clock.advance(23 * HOUR_MS - 1); // 1 h → just under 24 h: still healthy
    expect(await stats(org.keys.read)).toMatchObject({ healthy_count: 1, warning_count: 1 });
  });

  it('agrees with the health on each tenant record', async () => {
    const res = await app.graphql<{ tenants: { items: Array<{ health: string }> } }>(
      org.keys.read,
      '{ tenants(limit: 100) { items { health } } }',
    );
    const health = res.body.data!.tenants.items.map((tenant) => tenant.health);
    expect(await stats(org.keys.read)).toEqual({
      total_tenants: health.length,
      healthy_count: health.filter((h) => h === 'HEALTHY').length,
      warning_count: health.filter((h) => h === 'WARNING').length,
      critical_count: health.filter((h) => h === 'CRITICAL').length,
    });
  });

  it('keeps live and sandbox apart', async () => {
    expect(await stats(org.liveAdminKey)).toEqual({
      total_tenants: 1,
      healthy_count: 1,
      warning_count: 0,
      critical_count: 0,
    });
  });

  it('answers zeros for an organization without tenants', async () => {
    const empty = await createOrganizationWithKeys(app);
    expect(await stats(empty.keys.read)).toEqual({
      total_tenants: 0,
      healthy_count: 0,
      warning_count: 0,
      critical_count: 0,
    });
  });

  it('is the GraphQL field portalTenantStats, in camelCase', async () => {
    const res = await app.graphql(
      org.keys.read,
      '{ portalTenantStats { totalTenants healthyCount warningCount criticalCount } }',
    );
    expect(res.body).toEqual({
      data: { portalTenantStats: { totalTenants: 3, healthyCount: 1, warningCount: 1, criticalCount: 1 } },
    });
  });
});

describe('GET /api/msp-portal/license-intelligence/summary', () => {
  let org: OrganizationWithKeys;
  let alpha: Tenant;
  let bravo: Tenant;
  let visio: TenantLicense;
  const E3 = { skuId: '6fd2c87f-b296-42f0-b197-1e91e994b900', skuPartNumber: 'ENTERPRISEPACK' };

  beforeAll(async () => {
    org = await createOrganizationWithKeys(app);
    alpha = await createTenant(app, org.scope, { name: 'Alpha' });
    bravo = await createTenant(app, org.scope, { name: 'Bravo' });
    await createTenant(app, org.scope, { name: 'Charlie (no licenses)' });

    const alphaE3 = await createSku(app, alpha, { ...E3, name: 'Office 365 E3', total: 10 });
    const alphaEms = await createSku(app, alpha, { skuPartNumber: 'EMS', name: 'EMS E3', total: 2 });
    const bravoE3 = await createSku(app, bravo, { ...E3, name: 'Office 365 E3', total: 5 });
    // Over-allocated, as a sync can leave it (the cloud sold fewer seats than are assigned).
    visio = await createSku(app, bravo, {
      skuPartNumber: 'VISIOCLIENT',
      name: 'Visio',
      total: 1,
      consumed: 3,
    });

    await licensedUser(alpha, [alphaE3, alphaEms], { lastSignInAt: ago(DAY_MS) }); // active
    await licensedUser(alpha, [alphaE3], {
      accountStatus: AccountStatus.DISABLED,
      lastSignInAt: ago(DAY_MS),
    });
    await licensedUser(alpha, [alphaE3], { createdAt: ago(40 * DAY_MS) }); // never signed in, old: inactive
    await licensedUser(alpha, [alphaE3], { createdAt: ago(5 * DAY_MS) }); // never signed in, new: active
    await licensedUser(alpha, [alphaE3, alphaEms], { lastSignInAt: ago(31 * DAY_MS) }); // inactive, 2 seats
    // Soft-deleted (and disabled): never counted as inactive, though its seat is (as the counter says).
    await licensedUser(alpha, [alphaE3], {
      accountStatus: AccountStatus.DISABLED,
      deletedAt: ago(DAY_MS),
    });
    await licensedUser(bravo, [bravoE3], { lastSignInAt: ago(30 * DAY_MS) }); // exactly 30 days: inactive
    await licensedUser(bravo, [bravoE3], { lastSignInAt: ago(29 * DAY_MS) }); // active (until the clock moves)

    // Never counted: another organization, and this organization's live environment.
    const other = await createOrganizationWithKeys(app);
    const foreign = await createTenant(app, other.scope);
    const foreignSku = await createSku(app, foreign, {
      ...E3,
      name: 'Office 365 E3',
      total: 100,
      consumed: 200,
    });
    await licensedUser(foreign, [foreignSku], { accountStatus: AccountStatus.DISABLED });
    const live = await createTenant(app, org.liveScope, { name: 'Live' });
    const liveSku = await createSku(app, live, { ...E3, name: 'Office 365 E3', total: 7 });
    await licensedUser(live, [liveSku], { accountStatus: AccountStatus.DISABLED });
  });

  it('sums seats per SKU and in total, lists over-allocations and inactive licensed users', async () => {
    const body = await summary(org.keys.read);
    expect(body.totals).toEqual({
      tenants: 2, // Charlie holds no SKU
      totalSeats: 18, // 10 + 2 + 5 + 1
      assignedSeats: 13, // 6 + 2 + 2 + 3
      availableSeats: 7, // 4 + 0 + 3 + 0 (Visio's excess takes no seat from elsewhere)
      utilizationPercent: 72.2, // 13 / 18
      inactiveLicensedUsers: 4, // disabled, old never-signed-in, 31 days, exactly 30 days
      inactiveAssignments: 5, // the 31-day user holds two SKUs
    });
    expect(body.skus).toEqual([
      {
        skuPartNumber: 'EMS',
        name: 'EMS E3',
        tenantCount: 1,
        totalSeats: 2,
        assignedSeats: 2,
        availableSeats: 0,
        utilizationPercent: 100,
        inactiveLicensedUsers: 1,
      },
      {
        skuPartNumber: 'ENTERPRISEPACK',
        name: 'Office 365 E3',
        tenantCount: 2,
        totalSeats: 15,
        assignedSeats: 8,
        availableSeats: 7,
        utilizationPercent: 53.3,
        inactiveLicensedUsers: 4,
      },
      {
        skuPartNumber: 'VISIOCLIENT',
        name: 'Visio',
        tenantCount: 1,
        totalSeats: 1,
        assignedSeats: 3,
        availableSeats: 0,
        utilizationPercent: 300,
        inactiveLicensedUsers: 0,
      },
    ]);
    expect(body.overAllocatedTenants).toEqual([
      {
        tenantId: bravo.id,
        tenantName: 'Bravo',
        skus: [
          {
            skuId: visio.skuId,
            skuPartNumber: 'VISIOCLIENT',
            name: 'Visio',
            totalSeats: 1,
            assignedSeats: 3,
            excessSeats: 2,
          },
        ],
        skuCount: 1,
      },
    ]);
    expect(body).toMatchObject({ skuCount: body.skus.length, overAllocatedTenantCount: 1 });
    expect(body.inactiveAfterDays).toBe(30);
    expect(body.generatedAt).toBe(start.toISOString());
  });

  it('reads "30 days" from the clock at the scheduled recount, and says how old its figures are', async () => {
    app.clock.advance(2 * DAY_MS); // the 29-day Bravo user reaches 31; the 5-day user is only 7 days old
    // No write marked a tenant: the stored figures stand until the 5-minute recalculation, and meta says so.
    const stale = await app.request<Envelope<SummaryBody>>('GET', SUMMARY, { key: org.keys.read });
    expect(stale.body.data.totals).toMatchObject({ inactiveLicensedUsers: 4, inactiveAssignments: 5 });
    expect(stale.body.meta).toEqual({ dataAsOf: start.toISOString() });
    await onServer(app, 'recountAllTenants');
    const res = await app.request<Envelope<SummaryBody>>('GET', SUMMARY, { key: org.keys.read });
    expect(res.body.meta).toEqual({ dataAsOf: app.clock.now().toISOString() });
    const body = res.body.data;
    expect(body.totals).toMatchObject({ inactiveLicensedUsers: 5, inactiveAssignments: 6 });
    expect(body.skus.find((sku) => sku.skuPartNumber === 'ENTERPRISEPACK')?.inactiveLicensedUsers).toBe(5);
    expect(body.generatedAt).toBe(app.clock.now().toISOString());
  });

  it('keeps live and sandbox apart', async () => {
    const body = await summary(org.liveAdminKey);
    expect(body.totals).toEqual({
      tenants: 1,
      totalSeats: 7,
      assignedSeats: 1,
      availableSeats: 6,
      utilizationPercent: 14.3,
      inactiveLicensedUsers: 1,
      inactiveAssignments: 1,
    });
    expect(body.skus.map((sku) => [sku.skuPartNumber, sku.tenantCount])).toEqual([['ENTERPRISEPACK', 1]]);
    expect(body.overAllocatedTenants).toEqual([]);
  });

  it('answers zeros (utilizationPercent 0, not NaN or null) for an organization without licenses', async () => {
    const empty = await createOrganizationWithKeys(app);
    await createTenant(app, empty.scope);
    await createSku(app, await createTenant(app, empty.scope), { total: 0 }); // a SKU without seats
    const body = await summary(empty.keys.read);
    expect(body.totals).toEqual({
      tenants: 1,
      totalSeats: 0,
      assignedSeats: 0,
      availableSeats: 0,
      utilizationPercent: 0,
      inactiveLicensedUsers: 0,
      inactiveAssignments: 0,
    });
    expect(body.skus[0]).toMatchObject({ totalSeats: 0, utilizationPercent: 0 });

    const none = await createOrganizationWithKeys(app);
    expect(await summary(none.keys.read)).toEqual({
      totals: {
        tenants: 0,
        totalSeats: 0,
        assignedSeats: 0,
        availableSeats: 0,
        utilizationPercent: 0,
        inactiveLicensedUsers: 0,
        inactiveAssignments: 0,
      },
      skus: [],
      skuCount: 0,
      overAllocatedTenants: [],
      overAllocatedTenantCount: 0,
      inactiveAfterDays: 30,
      generatedAt: start.toISOString(),
    });
  });

  it('is the GraphQL field licenseIntelligenceSummary', async () => {
    const res = await app.graphql<{ licenseIntelligenceSummary: { totals: { utilizationPercent: number } } }>(
      org.keys.read,
      '{ licenseIntelligenceSummary { totals { utilizationPercent } skus { skuPartNumber } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.licenseIntelligenceSummary).toEqual({
      totals: { utilizationPercent: 72.2 },
      skus: [{ skuPartNumber: 'EMS' }, { skuPartNumber: 'ENTERPRISEPACK' }, { skuPartNumber: 'VISIOCLIENT' }],
    });
  });
});

describe('msp:read guards the portal', () => {
  let org: OrganizationWithKeys;
  let tokenFor: (scopes: Permission[]) => Promise<string>;

  beforeAll(async () => {
    org = await createOrganizationWithKeys(app);
    await createTenant(app, org.scope);
    const client = await createOAuthClient(app, org.scope);
    const member = await createMember(app, org.organization.id);
    tokenFor = (scopes) => issueAccessToken(app, client, member, scopes);
  });

  it.each([STATS, SUMMARY])('%s: every API key level is allowed', async (path) => {
    for (const key of [org.keys.read, org.keys.write, org.keys.admin]) {
      const res = await app.request<Envelope>('GET', path, { key });
      expect(res.status).toBe(200);
    }
  });

  it.each([STATS, SUMMARY])('%s: a token with msp:read (or admin) is allowed', async (path) => {
    for (const scopes of [[Permission.MSP_READ], [Permission.ADMIN]]) {
      const res = await app.request<Envelope>('GET', path, { key: await tokenFor(scopes) });
      expect(res.status).toBe(200);
    }
  });

  it.each([STATS, SUMMARY])('%s: a token without msp:read gets 403 naming it', async (path) => {
    const token = await tokenFor([Permission.READ_TENANTS, Permission.WRITE_LICENSES]);
    const res = await app.request<Envelope>('GET', path, { key: token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'FORBIDDEN', details: { required: 'msp:read' } },
    });
  });

  it('GraphQL answers FORBIDDEN the same way', async () => {
    const token = await tokenFor([Permission.READ_TENANTS]);
    const res = await app.graphql(token, '{ portalTenantStats { totalTenants } }');
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      details: { required: 'msp:read' },
    });
  });

  it('needs a credential at all (401)', async () => {
    expect((await app.request('GET', STATS)).status).toBe(401);
  });
});

describe('cost', () => {
  it('runs the same number of SQL statements for 1 tenant as for 8', async () => {
    const org = await createOrganizationWithKeys(app);
    const addTenant = async (scope: Scope) => {
      const tenant = await createTenant(app, scope, { lastSyncedAt: ago(30 * HOUR_MS) });
      const sku = await createSku(app, tenant, { skuPartNumber: `SKU${tenant.id.slice(0, 4)}`, total: 1 });
      await licensedUser(tenant, [sku], { accountStatus: AccountStatus.DISABLED });
      await createSku(app, tenant, { skuPartNumber: 'OVER', total: 0, consumed: 1 });
    };
    const measure = async () => {
      // Warm the API key cache first, so only the portal's own work differs between runs.
      await app.request('GET', STATS, { key: org.keys.read });
      await recountMarked();
      const forStats = await app.sql.during(() => app.request('GET', STATS, { key: org.keys.read }));
      const forSummary = await app.sql.during(() => app.request('GET', SUMMARY, { key: org.keys.read }));
      return { forStats, forSummary };
    };

    await addTenant(org.scope);
    const one = await measure();
    for (let i = 0; i < 7; i++) await addTenant(org.scope);
    const eight = await measure();

    expect((await stats(org.keys.read)).total_tenants).toBe(8);
    const body = await summary(org.keys.read);
    expect(body.overAllocatedTenants).toHaveLength(8);
    expect(body.totals.inactiveLicensedUsers).toBe(8);
    expect(eight).toEqual(one);
    // With the key cached: one statement for the stats, two for the summary, whatever the tenants (the helpers
    // recount the marked tenants first, as the one-minute job would, outside the measured request).
    expect(one).toEqual({ forStats: 1, forSummary: 2 });
  });
});
