/**
 * Issue #33 item 10: a tenant's health is right from the moment its sync commits. It used to show healthy, with
 * the portal's `dataAsOf` = now, until the one-minute recount found its open High alerts; the sync now recounts
 * the tenant's figures as its last step, so the record and the portal agree at once with what the sync wrote.
 */
import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ jobs: true }));
});
afterAll(() => app.stop());

it('counts the alerts, devices and score a sync brings before anyone reads the tenant', async () => {
  const cloud = app.deps.clouds as SimulatedCloud;
  const { tenant: upstream } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: 'Fresh Co',
    domains: ['fresh-co.example', 'freshco.onmicrosoft.com'],
    seed: 4242,
    employees: 30,
  });
  await cloud.consent.grantDelegatedAccess(upstream.externalId, org.scope.organizationId);
  const onboarded = await app.graphql<{ onboardTenant: { id: string } }>(
    org.keys.write,
    'mutation($id: String!) { onboardTenant(input: { externalId: $id }) { id } }',
    { id: upstream.externalId },
  );
  const tenantId = onboarded.body.data!.onboardTenant.id;
  const sync = await syncAndWait(app, org, tenantId);
  expect(sync.status).toBe('Completed');

  // No recount job has run (the suite's runner has no cron): the figures are the sync's own.
  const { rows } = await app.pool.query<{
    stored: number;
    counted: number;
    devices: number;
    all_devices: number;
  }>(
    `select a.open_high_alerts as stored, a.devices,
            (select count(*)::int from security_alerts s
              where s.tenant_id = a.tenant_id and s.severity = 'High' and s.status in ('New', 'In Progress')) as counted,
            (select count(*)::int from devices d where d.tenant_id = a.tenant_id) as all_devices
       from portal_tenant_aggregates a where a.tenant_id = $1`,
    [tenantId],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].stored).toBe(rows[0].counted);
  expect(rows[0].devices).toBe(rows[0].all_devices);
  expect(rows[0].devices).toBeGreaterThan(0);
});
