import { BACKUP_AGE_CRITICAL_MS, BACKUP_AGE_WARNING_MS } from '../../src/tenants/tenant-health.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { backupTenant, refreshCatalog } from '../backup/backup-kit.js';
import type { Envelope } from '../helpers/envelope.js';
import { createOrganizationWithKeys, type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';
import { healthOf, insertAlerts, insertDevices, portalStats, type StatsBody } from './health-kit.js';

/**
 * Tenant health from the signals that joined sync age and secure score (docs/tenant-health.md): open High
 * alerts, Non-Compliant devices and failed backups, below and at each threshold, the worst signal winning, read
 * on the tenant record (REST GET /v1/tenants/:id) and counted by the portal (tenants/stats) alike.
 */

const HOUR_MS = 3_600_000;

let app: SharedApp;
let start: Date;

beforeAll(async () => {
  app = await sharedApp();
  start = app.clock.now();
});
afterAll(() => app.stop());
afterEach(() => app.clock.set(start));

/** An organization with one tenant, so its portal stats are that tenant's health. */
async function oneTenant(fields: { lastSyncedAt?: Date | null } = {}) {
  const org = await createOrganizationWithKeys(app);
  const tenant = await createTenant(app, org.scope, fields);
  return { org, tenant };
}

/** The record's health, and the portal's count of it (the one tenant of the organization). */
async function both(org: OrganizationWithKeys, tenant: Tenant): Promise<{ record: string; portal: string }> {
  const record = await healthOf(app, org.keys.read, tenant);
  const stats: StatsBody = await portalStats(app, org.keys.read);
  expect(stats.total_tenants).toBe(1);
  const portal = (['healthy', 'warning', 'critical'] as const).find((h) => stats[`${h}_count`] === 1) ?? '?';
  return { record, portal };
}

const is = (health: string) => ({ record: health, portal: health });

describe('open High-severity alerts: 1 warning, 3 critical', () => {
  it('counts open (New, In Progress) High alerts only', async () => {
    const { org, tenant } = await oneTenant();
    expect(await both(org, tenant)).toEqual(is('healthy'));
    // Lower severities and closed High alerts do not count.
    await insertAlerts(app, org.scope, tenant, 4, { severity: 'Medium' });
    await insertAlerts(app, org.scope, tenant, 2, { severity: 'Low' });
    await insertAlerts(app, org.scope, tenant, 3, { severity: 'High', status: 'Resolved' });
    await insertAlerts(app, org.scope, tenant, 3, { severity: 'High', status: 'Dismissed' });
    expect(await both(org, tenant)).toEqual(is('healthy'));

    await insertAlerts(app, org.scope, tenant, 1, { status: 'In Progress' });
    expect(await both(org, tenant)).toEqual(is('warning'));
    const [second] = await insertAlerts(app, org.scope, tenant, 1);
    expect(await both(org, tenant)).toEqual(is('warning')); // 2: below critical
    await insertAlerts(app, org.scope, tenant, 1);
    expect(await both(org, tenant)).toEqual(is('critical')); // 3: at critical

    // Resolving one takes the tenant back under the critical line.
    await app.pool.query(`update security_alerts set status = 'Resolved' where id = $1`, [second]);
    expect(await both(org, tenant)).toEqual(is('warning'));
  });
});

describe('Non-Compliant devices: 10 % of the devices warning, 25 % critical', () => {
  it('compares the share of Non-Compliant devices (In Grace Period and Not Evaluated do not count)', async () => {
    const { org, tenant } = await oneTenant();
    await insertDevices(app, org.scope, tenant, 9, 'Compliant');
    await insertDevices(app, org.scope, tenant, 1, 'In Grace Period');
    await insertDevices(app, org.scope, tenant, 1, 'Not Evaluated');
    expect(await both(org, tenant)).toEqual(is('healthy'));

    const [first] = await insertDevices(app, org.scope, tenant, 1, 'Non-Compliant'); // 1 of 12: 8.3 %
    expect(await both(org, tenant)).toEqual(is('healthy'));
    await app.pool.query(`delete from devices where tenant_id = $1 and compliance_state = 'Not Evaluated'`, [
      tenant.id,
    ]);
    await app.pool.query(
      `delete from devices where id = (select id from devices where tenant_id = $1 and compliance_state = 'Compliant' limit 1)`,
      [tenant.id],
    ); // 1 of 10: at 10 %
    expect(await both(org, tenant)).toEqual(is('warning'));
    await insertDevices(app, org.scope, tenant, 1, 'Non-Compliant'); // 2 of 11: 18.2 %
    expect(await both(org, tenant)).toEqual(is('warning'));
    await insertDevices(app, org.scope, tenant, 1, 'Non-Compliant'); // 3 of 12: at 25 %
    expect(await both(org, tenant)).toEqual(is('critical'));

    // A sync bringing one back to Compliant: 2 of 12.
    await app.pool.query(`update devices set compliance_state = 'Compliant' where id = $1`, [first]);
    expect(await both(org, tenant)).toEqual(is('warning'));
  });
});

describe('failed backups: a protected resource without a snapshot for 8 h warning, 24 h critical', () => {
  /** The newest snapshot of each protected resource of the tenant, oldest first. */
  async function latestPerResource(tenant: Tenant): Promise<Array<{ resource_id: string; latest: Date }>> {
    const { rows } = await app.pool.query<{ resource_id: string; latest: Date }>(
      `select resource_id, max(taken_at) as latest from backup_snapshots where tenant_id = $1
        group by resource_id order by latest, resource_id`,
      [tenant.id],
    );
    return rows;
  }

  it('follows the clock from the oldest of the resources\u2019 newest snapshots', async () => {
    const org = await createOrganizationWithKeys(app);
    const { tenant } = await backupTenant(app, org);
    const [oldest] = await latestPerResource(tenant);
    expect(await both(org, tenant)).toEqual(is('healthy'));

    app.clock.set(new Date(oldest.latest.getTime() + BACKUP_AGE_WARNING_MS - 1000));
    expect(await both(org, tenant)).toEqual(is('healthy'));
    app.clock.set(new Date(oldest.latest.getTime() + BACKUP_AGE_WARNING_MS));
    expect(await both(org, tenant)).toEqual(is('warning'));
    app.clock.set(new Date(oldest.latest.getTime() + BACKUP_AGE_CRITICAL_MS - 1000));
    expect((await both(org, tenant)).record).toBe('warning');
    app.clock.set(new Date(oldest.latest.getTime() + BACKUP_AGE_CRITICAL_MS));
    expect(await both(org, tenant)).toEqual(is('critical'));

    // The hourly catalog brings the new snapshots: healthy again (the sync is fresh enough too).
    await app.pool.query(`update tenants set last_synced_at = $1 where id = $2`, [
      app.clock.now(),
      tenant.id,
    ]);
    await refreshCatalog(app, tenant);
    expect(await both(org, tenant)).toEqual(is('healthy'));
  });

  it('is the worst resource: one mailbox whose recent backups failed makes the tenant warning', async () => {
    const org = await createOrganizationWithKeys(app);
    const { tenant } = await backupTenant(app, org);
    const resources = await latestPerResource(tenant);
    expect(resources.length).toBeGreaterThan(2);
    expect(await both(org, tenant)).toEqual(is('healthy'));
    // The backup service failed that resource's slots of the last 9 hours (the others' went through).
    const failing = resources[resources.length - 1].resource_id;
    await app.pool.query(
      `delete from backup_snapshots where tenant_id = $1 and resource_id = $2 and taken_at > $3`,
      [tenant.id, failing, new Date(app.clock.now().getTime() - 9 * HOUR_MS)],
    );
    expect(await both(org, tenant)).toEqual(is('warning'));
  });

  it('gives no backup signal to a tenant without protected resources', async () => {
    const { org, tenant } = await oneTenant();
    app.clock.advance(20 * HOUR_MS);
    expect(await both(org, tenant)).toEqual(is('healthy'));
  });
});

describe('the worst signal wins', () => {
  it('across alerts, devices, sync age and backups', async () => {
    const { org, tenant } = await oneTenant({ lastSyncedAt: new Date(start.getTime() - 30 * HOUR_MS) });
    expect(await both(org, tenant)).toEqual(is('warning')); // sync age alone
    await insertAlerts(app, org.scope, tenant, 1);
    await insertDevices(app, org.scope, tenant, 9, 'Compliant');
    await insertDevices(app, org.scope, tenant, 1, 'Non-Compliant');
    expect(await both(org, tenant)).toEqual(is('warning')); // three warnings are still a warning
    await insertDevices(app, org.scope, tenant, 3, 'Non-Compliant'); // 4 of 13: 30.8 %
    expect(await both(org, tenant)).toEqual(is('critical'));

    const never = await oneTenant({ lastSyncedAt: null });
    expect(await both(never.org, never.tenant)).toEqual(is('critical'));
  });

  it('shows the same health in the tenant list', async () => {
    const { org, tenant } = await oneTenant();
    await insertAlerts(app, org.scope, tenant, 3);
    expect(await healthOf(app, org.keys.read, tenant)).toBe('critical');
    const list = await app.request<Envelope<Array<{ id: string; health: string }>>>('GET', '/v1/tenants', {
      key: org.keys.read,
    });
    expect(list.body.data).toEqual([expect.objectContaining({ id: tenant.id, health: 'critical' })]);
  });
});

describe('organizations stay apart', () => {
  it("never counts another organization's alerts, devices or backups", async () => {
    const mine = await oneTenant();
    const theirs = await oneTenant();
    await insertAlerts(app, theirs.org.scope, theirs.tenant, 5);
    await insertDevices(app, theirs.org.scope, theirs.tenant, 2, 'Non-Compliant');
    expect(await both(theirs.org, theirs.tenant)).toEqual(is('critical'));
    expect(await both(mine.org, mine.tenant)).toEqual(is('healthy'));
    const foreign = await app.request<Envelope>('GET', `/v1/tenants/${theirs.tenant.id}`, {
      key: mine.org.keys.read,
    });
    expect(foreign.status).toBe(404);
  });
});
