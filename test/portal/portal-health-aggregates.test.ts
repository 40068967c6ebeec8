import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { refreshCatalog } from '../backup/backup-kit.js';
import { createOrganizationWithKeys, type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import {
  countHealthSignals,
  insertAlerts,
  insertDevices,
  storedHealthSignals,
} from '../tenants/health-kit.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

/**
 * The health signals the portal aggregates store (docs/tenant-health.md "Where the signals come from") against a
 * count written here from every alert, device and snapshot row: alert, device and backup catalog changes mark
 * their tenant (statement-level triggers), the one-minute job recounts it, the five-minute job too. The license
 * figures of the same rows: test/portal/portal-aggregates.test.ts (whose recount also compares these signals).
 */

let app: RealmApp;
let org: OrganizationWithKeys;
let first: Tenant;
let second: Tenant;

/** The portal's recounts, run by the server (its ORM): the marked tenants, or all of them. */
const aggregates = () => ({
  refreshDirty: () => onServer(app, 'recountMarkedTenants'),
  refreshAll: () => onServer(app, 'recountAllTenants'),
});
const ids = () => [first.id, second.id];
const stored = () => storedHealthSignals(app, ids());
const counted = () => countHealthSignals(app, ids());

async function dirtyTenants(): Promise<string[]> {
  const rows = await app.pool.query<{ tenant_id: string }>(
    `select distinct tenant_id from portal_dirty_tenants where organization_id = $1 order by tenant_id`,
    [org.scope.organizationId],
  );
  return rows.rows.map((row) => row.tenant_id);
}

beforeAll(async () => {
  ({ app, org } = await realmSuite());
  first = await createTenant(app, org.scope);
  second = await createTenant(app, org.scope);
  await aggregates().refreshAll();
});
afterAll(() => app.stop());

it('start at no signal, equal to the count', async () => {
  expect(await stored()).toEqual(await counted());
  expect((await stored())[first.id]).toEqual({
    openHighAlerts: 0,
    devices: 0,
    nonCompliantDevices: 0,
    oldestLatestBackupAt: null,
  });
});

it('follow alerts: open High ones only, marked and recounted', async () => {
  await insertAlerts(app, org.scope, first, 2);
  await insertAlerts(app, org.scope, first, 1, { severity: 'Medium' });
  await insertAlerts(app, org.scope, second, 1, { status: 'Resolved' });
  expect(await dirtyTenants()).toEqual(ids().sort());
  expect(await stored()).not.toEqual(await counted());
  await aggregates().refreshDirty();
  expect((await stored())[first.id].openHighAlerts).toBe(2);
  expect(await stored()).toEqual(await counted());
});

it('follow devices through their stored counts; a last-seen rewrite marks nothing', async () => {
  const [device] = await insertDevices(app, org.scope, second, 3, 'Non-Compliant');
  await insertDevices(app, org.scope, second, 5);
  await aggregates().refreshDirty();
  expect((await stored())[second.id]).toMatchObject({ devices: 8, nonCompliantDevices: 3 });
  expect(await stored()).toEqual(await counted());
  // A device's compliance moves: its tenant's counts change, so it is marked.
  await app.pool.query(`update devices set compliance_state = 'Compliant' where id = $1`, [device]);
  expect(await dirtyTenants()).toEqual([second.id]);
  await aggregates().refreshDirty();
  // A sync rewriting only last-seen times changes no count and marks nothing.
  await app.pool.query(`update devices set last_seen_at = now() where tenant_id = $1`, [second.id]);
  expect(await dirtyTenants()).toEqual([]);
  expect(await stored()).toEqual(await counted());
});

it('follow the backup catalog, and the five-minute recalculation', async () => {
  await refreshCatalog(app, first);
  expect(await dirtyTenants()).toEqual([first.id]);
  await aggregates().refreshDirty();
  expect((await stored())[first.id].oldestLatestBackupAt).not.toBeNull();
  expect(await stored()).toEqual(await counted());

  await app.pool.query(
    `delete from backup_snapshots where id in (select id from backup_snapshots where tenant_id = $1
       order by taken_at desc limit 3)`,
    [first.id],
  );
  await app.pool.query(`update security_alerts set status = 'Resolved' where tenant_id = $1`, [first.id]);
  await app.pool.query(`delete from devices where tenant_id = $1`, [second.id]);
  expect(await dirtyTenants()).toEqual(ids().sort());
  await aggregates().refreshAll();
  expect(await dirtyTenants()).toEqual([]);
  expect(await stored()).toEqual(await counted());
  expect((await stored())[second.id]).toMatchObject({ devices: 0, nonCompliantDevices: 0 });
  expect((await stored())[first.id].openHighAlerts).toBe(0);
});

it("never count another organization's rows", async () => {
  const other = await createOrganizationWithKeys(app);
  const theirs = await createTenant(app, other.scope);
  await insertAlerts(app, other.scope, theirs, 4);
  await insertDevices(app, other.scope, theirs, 2, 'Non-Compliant');
  const before = await stored();
  await aggregates().refreshAll();
  expect(await stored()).toEqual(before);
  expect((await storedHealthSignals(app, [theirs.id]))[theirs.id]).toMatchObject({
    openHighAlerts: 4,
    devices: 2,
    nonCompliantDevices: 2,
  });
});
