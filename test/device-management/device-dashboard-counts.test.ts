import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { storedAndRecounted as storedCounts } from '../helpers/stored-counts.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { addCloudDevices, sync } from './device-management-kit.js';

/**
 * The stored dashboard counts (device_dashboard_counts, kept by the devices table's statement triggers, issue #15)
 * must equal a recount of the devices after every kind of write: sync inserts, updates that move devices between
 * keys, updates that move none, deletes, and a tenant's deletion cascading to its devices.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenants: Tenant[];

const KEY = 'organization_id, environment, tenant_id, os_platform, ownership, compliance_state';

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  tenants = [await createTenant(app, org.scope), await createTenant(app, org.scope)];
  for (const [t, tenant] of tenants.entries()) {
    const platforms = ['Windows', 'macOS', 'iOS'] as const;
    const devices = Array.from({ length: 12 + t * 5 }, (_, i) => ({
      osPlatform: platforms[i % platforms.length],
      ownership: i % 2 ? ('Personal' as const) : ('Corporate' as const),
      complianceState: i % 3 ? ('Compliant' as const) : ('Non-Compliant' as const),
    }));
    await addCloudDevices(app, tenant, devices);
    await sync(app, org.scope, tenant.id);
  }
}, 60_000);
afterAll(() => app.stop());

/** Stored counts and a recount, as sorted `key → n` lines, for this organization. */
const storedAndRecounted = () =>
  storedCounts(app, org.organization.id, {
    stored: `select ${KEY}, devices from device_dashboard_counts where organization_id = $1 and devices <> 0`,
    recounted: `select ${KEY}, count(*)::int from devices where organization_id = $1 group by ${KEY}`,
  });

async function expectExact(): Promise<void> {
  const { stored, recounted } = await storedAndRecounted();
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).toEqual(recounted);
}

describe('device dashboard counts', () => {
  it('equal a recount after sync inserted the devices', async () => {
    await expectExact();
    const { rows } = await app.pool.query<{ n: number }>(
      `select sum(devices)::int as n from device_dashboard_counts where organization_id = $1`,
      [org.organization.id],
    );
    expect(rows[0].n).toBe(12 + 17);
  });

  it('follow one statement that moves some devices between keys and rewrites others unchanged', async () => {
    await app.pool.query(
      `update devices set
         compliance_state = case when os_platform = 'Windows' then 'In Grace Period' else compliance_state end,
         os_platform = case when os_platform = 'iOS' then 'Android' else os_platform end,
         last_seen_at = now()
       where tenant_id = $1`,
      [tenants[0].id],
    );
    await expectExact();
  });

  it('do not change when an update touches no counted column', async () => {
    const before = await storedAndRecounted();
    await app.pool.query(
      `update devices set last_seen_at = now(), device_name = device_name || '-x' where organization_id = $1`,
      [org.organization.id],
    );
    expect(await storedAndRecounted()).toEqual(before);
  });

  it('follow deletes, and leave no zero rows behind', async () => {
    await app.pool.query(`delete from devices where tenant_id = $1 and ownership = 'Personal'`, [
      tenants[1].id,
    ]);
    await expectExact();
    const { rows } = await app.pool.query(
      `select 1 from device_dashboard_counts where organization_id = $1 and devices <= 0`,
      [org.organization.id],
    );
    expect(rows).toEqual([]);
  });

  it("lose a deleted tenant's devices entirely (the cascade deletes run the trigger too)", async () => {
    await app.pool.query(`delete from tenants where id = $1`, [tenants[1].id]);
    await expectExact();
    const { rows } = await app.pool.query(`select 1 from device_dashboard_counts where tenant_id = $1`, [
      tenants[1].id,
    ]);
    expect(rows).toEqual([]);
  });

  it('follow a second sync that changes compliance in the cloud', async () => {
    await addCloudDevices(app, tenants[0], [{ osPlatform: 'Linux', complianceState: 'Not Evaluated' }]);
    await sync(app, org.scope, tenants[0].id);
    await expectExact();
  });
});
