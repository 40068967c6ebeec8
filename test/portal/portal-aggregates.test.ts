import { DAY_MS } from '../../src/core/clock.js';
import type { TenantLicense } from '../../src/licenses/license.entity.js';
import { INACTIVE_AFTER_DAYS } from '../../src/portal/portal-recount-statement.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import {
  createSku,
  createTenant,
  createUser,
  giveLicense,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { countHealthSignals, NO_SIGNALS, type HealthSignalCounts } from '../tenants/health-kit.js';

/**
 * The stored portal aggregates (docs/portal.md "Aggregates") against a recount written here from the raw rows,
 * in plain TypeScript: after our own writes (dirty marks, recounted by the one-minute job or the next read),
 * after time passes (the five-minute job, which recounts only the tenants whose next crossing of the 30-day
 * line has come), and with a write that commits while a recount runs.
 */

let app: RealmApp;
let org: OrganizationWithKeys;
let tenants: Tenant[];
let skus: Map<string, TenantLicense[]>;
let users: User[];

/** The license figures, and the health signals (docs/tenant-health.md; test/portal/portal-health-aggregates.test.ts). */
interface Recount extends HealthSignalCounts {
  inactiveLicensedUsers: number;
  inactiveBySku: Record<string, number>;
  /** When the first active licensed user reaches 30 days without a sign-in (ISO), null if none is active. */
  nextCrossingAt: string | null;
}

/** Reads every user, assignment and held SKU of the tenants and counts in memory. */
async function recount(): Promise<Record<string, Recount>> {
  const cutoff = app.clock.now().getTime() - INACTIVE_AFTER_DAYS * DAY_MS;
  const ids = tenants.map((tenant) => tenant.id);
  const userRows = await app.pool.query<{
    id: string;
    account_status: string;
    last_sign_in_at: Date | null;
    created_at: Date;
    deleted_at: Date | null;
  }>(
    `select id, account_status, last_sign_in_at, created_at, deleted_at from users where tenant_id = any($1)`,
    [ids],
  );
  const assignments = await app.pool.query<{ tenant_id: string; user_id: string; sku_id: string }>(
    `select tenant_id, user_id, sku_id from license_assignments where tenant_id = any($1)`,
    [ids],
  );
  const held = await app.pool.query<{ tenant_id: string; sku_id: string }>(
    `select tenant_id, sku_id from tenant_licenses where tenant_id = any($1)`,
    [ids],
  );
  const inactive = new Set(
    userRows.rows
      .filter(
        (user) =>
          user.deleted_at === null &&
          (user.account_status === AccountStatus.DISABLED ||
            (user.last_sign_in_at ?? user.created_at).getTime() <= cutoff),
      )
      .map((user) => user.id),
  );
  const result: Record<string, Recount> = Object.fromEntries(
    ids.map((id) => [
      id,
      { inactiveLicensedUsers: 0, inactiveBySku: {}, nextCrossingAt: null, ...NO_SIGNALS },
    ]),
  );
  const signals = await countHealthSignals(app, ids);
  for (const id of ids) Object.assign(result[id], signals[id]);
  const counted = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
  const byId = new Map(userRows.rows.map((user) => [user.id, user]));
  for (const assignment of assignments.rows) {
    const user = byId.get(assignment.user_id)!;
    if (user.deleted_at === null && !inactive.has(assignment.user_id)) {
      const crossing = new Date(
        (user.last_sign_in_at ?? user.created_at).getTime() + INACTIVE_AFTER_DAYS * DAY_MS,
      ).toISOString();
      const tenant = result[assignment.tenant_id];
      if (tenant.nextCrossingAt === null || crossing < tenant.nextCrossingAt)
        tenant.nextCrossingAt = crossing;
    }
    if (!inactive.has(assignment.user_id)) continue;
    const tenant = result[assignment.tenant_id];
    tenant.inactiveBySku[assignment.sku_id] = (tenant.inactiveBySku[assignment.sku_id] ?? 0) + 1;
    if (held.rows.some((row) => row.tenant_id === assignment.tenant_id && row.sku_id === assignment.sku_id))
      counted.get(assignment.tenant_id)!.add(assignment.user_id);
  }
  for (const id of ids) result[id].inactiveLicensedUsers = counted.get(id)!.size;
  return result;
}

async function stored(): Promise<Record<string, Recount>> {
  const rows = await app.pool.query<{
    tenant_id: string;
    inactive_licensed_users: number;
    inactive_by_sku: Record<string, number>;
    next_crossing_at: Date | null;
    open_high_alerts: number;
    devices: number;
    non_compliant_devices: number;
    oldest_latest_backup_at: Date | null;
  }>(
    `select tenant_id, inactive_licensed_users, inactive_by_sku, next_crossing_at, open_high_alerts, devices,
            non_compliant_devices, oldest_latest_backup_at
       from portal_tenant_aggregates where tenant_id = any($1)`,
    [tenants.map((tenant) => tenant.id)],
  );
  return Object.fromEntries(
    rows.rows.map((row) => [
      row.tenant_id,
      {
        inactiveLicensedUsers: row.inactive_licensed_users,
        inactiveBySku: row.inactive_by_sku,
        nextCrossingAt: row.next_crossing_at?.toISOString() ?? null,
        openHighAlerts: row.open_high_alerts,
        devices: row.devices,
        nonCompliantDevices: row.non_compliant_devices,
        oldestLatestBackupAt: row.oldest_latest_backup_at?.toISOString() ?? null,
      },
    ]),
  );
}

async function dirtyTenants(): Promise<string[]> {
  const rows = await app.pool.query<{ tenant_id: string }>(
    `select distinct tenant_id from portal_dirty_tenants where organization_id = $1 order by tenant_id`,
    [org.scope.organizationId],
  );
  return rows.rows.map((row) => row.tenant_id);
}

/** The portal's recounts, run by the server (PortalAggregates' refreshDirty and refreshAll). */
const aggregates = () => ({
  refreshDirty: () => onServer(app, 'recountMarkedTenants'),
  refreshAll: () => onServer(app, 'recountAllTenants'),
});
const updateUser = (id: string, fields: Record<string, unknown>) =>
  onServer(app, 'updateEntities', 'User', { id }, fields);

// A database of the file's own: the five-minute recount covers every tenant, and the tests count the tenants it
// recounted.
beforeAll(async () => {
  ({ app, org } = await realmSuite());
  tenants = [await createTenant(app, org.scope), await createTenant(app, org.scope)];
  skus = new Map();
  users = [];
  for (const tenant of tenants) {
    const e3 = await createSku(app, tenant, { skuPartNumber: 'ENTERPRISEPACK', total: 10 });
    const visio = await createSku(app, tenant, { skuPartNumber: 'VISIOCLIENT', total: 2 });
    skus.set(tenant.id, [e3, visio]);
    for (let i = 0; i < 4; i++) {
      const user = await createUser(app, tenant, {
        accountStatus: i === 0 ? AccountStatus.DISABLED : AccountStatus.ENABLED,
        createdAt: new Date(app.clock.now().getTime() - i * 12 * DAY_MS), // 0, 12, 24, 36 days old
      });
      await giveLicense(app, tenant, user, e3);
      if (i % 2 === 1) await giveLicense(app, tenant, user, visio);
      users.push(user);
    }
  }
  await aggregates().refreshAll();
});
afterAll(() => app.stop());

it('equal a direct recount after the full recalculation', async () => {
  // The recalculation also takes away the marks committed before it began (it recounted those tenants).
  expect(await dirtyTenants()).toEqual([]);
  expect(await stored()).toEqual(await recount());
});

it('follow our own writes: the writes mark their tenant, the one-minute job recounts it', async () => {
  const [first] = tenants;
  const youngUser = users[1]; // tenant 0, 12 days old, E3 + Visio
  await updateUser(youngUser.id, { accountStatus: AccountStatus.DISABLED });
  await updateUser(users[2].id, { deletedAt: app.clock.now() });
  // Through the API: the 36-day-old (inactive) user of the first tenant gives back a Visio seat.
  const res = await app.request<Envelope>('POST', `/v1/tenants/${first.id}/licenses/remove`, {
    key: org.keys.write,
    body: { userId: users[3].id, skuId: skus.get(first.id)![1].skuId },
  });
  expect(res.status).toBe(200);
  expect(await dirtyTenants()).toEqual([first.id]);
  expect(await stored()).not.toEqual(await recount()); // stale until recounted

  expect(await aggregates().refreshDirty()).toBeGreaterThanOrEqual(1);
  expect(await dirtyTenants()).toEqual([]);
  expect(await stored()).toEqual(await recount());
});

it('follow the clock at the five-minute recalculation (no write marks a user growing inactive)', async () => {
  app.clock.advance(10 * DAY_MS); // the 24-day-old users pass 30 days
  expect(await stored()).not.toEqual(await recount());
  await aggregates().refreshAll();
  expect(await stored()).toEqual(await recount());
});

it('miss no write that commits while a recount runs', async () => {
  const [, second] = tenants;
  const writer = await app.pool.connect();
  try {
    await writer.query('begin');
    await writer.query(`update users set account_status = 'Disabled' where tenant_id = $1`, [second.id]);
    // The recount cannot see the uncommitted change, nor its mark...
    await aggregates().refreshDirty();
    await writer.query('commit');
  } finally {
    writer.release();
  }
  // ...so the mark survives it, and the next recount brings the figures up to date.
  expect(await dirtyTenants()).toEqual([second.id]);
  expect(await stored()).not.toEqual(await recount());
  await aggregates().refreshDirty();
  expect(await stored()).toEqual(await recount());
});

it('serve the portal without writing: marked tenants wait for the one-minute job, and meta.dataAsOf says so', async () => {
  const [first] = tenants;
  const countedAt = app.clock.now().toISOString();
  app.clock.advance(60_000);
  await updateUser(users[1].id, { accountStatus: AccountStatus.ENABLED });
  expect(await dirtyTenants()).toEqual([first.id]);
  const read = () =>
    app.request<Envelope<{ totals: { inactiveLicensedUsers: number } }> & { meta: { dataAsOf: string } }>(
      'GET',
      '/api/msp-portal/license-intelligence/summary',
      { key: org.keys.read },
    );
  const stale = await read();
  expect(stale.status).toBe(200);
  expect(stale.body.meta.dataAsOf).toBe(countedAt);
  expect(await dirtyTenants()).toEqual([first.id]); // the read wrote nothing
  await aggregates().refreshDirty();
  const res = await read();
  const expected = await recount();
  expect(res.body.data.totals.inactiveLicensedUsers).toBe(
    Object.values(expected).reduce((sum, tenant) => sum + tenant.inactiveLicensedUsers, 0),
  );
  // Only the marked tenant was recounted: the answer is as old as its oldest figures (the other tenant's).
  expect(res.body.meta.dataAsOf).toBe(countedAt);
});

it('recount a tenant whose user crosses the 30-day line without any write when the crossing comes, and only then', async () => {
  const third = await createTenant(app, org.scope);
  tenants.push(third);
  const e3 = await createSku(app, third, { skuPartNumber: 'ENTERPRISEPACK', total: 5 });
  const user = await createUser(app, third, {
    createdAt: new Date(app.clock.now().getTime() - 100 * DAY_MS),
  });
  await giveLicense(app, third, user, e3);
  // Signed in 25 days ago: the earliest crossing of all tenants (the first tenant's next one is 8 days away).
  const signedIn = new Date(app.clock.now().getTime() - 25 * DAY_MS);
  await app.pool.query(`update users set last_sign_in_at = $1 where id = $2`, [signedIn, user.id]);
  await aggregates().refreshAll();
  const crossing = new Date(signedIn.getTime() + INACTIVE_AFTER_DAYS * DAY_MS);
  expect((await stored())[third.id]).toEqual({
    ...NO_SIGNALS,
    inactiveLicensedUsers: 0,
    inactiveBySku: {},
    nextCrossingAt: crossing.toISOString(),
  });
  expect(await stored()).toEqual(await recount());

  // A second before it: nothing to recount; every tenant's figures are confirmed exact at the clock's time.
  app.clock.set(new Date(crossing.getTime() - 1000));
  expect(await aggregates().refreshAll()).toBe(0);
  const times = await app.pool.query<{ refreshed_at: Date }>(
    `select refreshed_at from portal_tenant_aggregates where tenant_id = any($1)`,
    [tenants.map((tenant) => tenant.id)],
  );
  expect(times.rows.map((row) => row.refreshed_at.toISOString())).toEqual(
    tenants.map(() => app.clock.now().toISOString()),
  );
  expect(await stored()).toEqual(await recount());

  // At the crossing: that tenant alone is recounted, and its user now holds an inactive seat.
  app.clock.set(crossing);
  expect(await aggregates().refreshAll()).toBe(1);
  expect((await stored())[third.id]).toEqual({
    ...NO_SIGNALS,
    inactiveLicensedUsers: 1,
    inactiveBySku: { [e3.skuId]: 1 },
    nextCrossingAt: null,
  });
  expect(await stored()).toEqual(await recount());
});
