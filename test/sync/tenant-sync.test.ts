import { randomUUID } from 'node:crypto';
import type { CloudUserRecord } from '../../src/cloud/provider.js';
import type { SimulatedCloud, SimulatedTenantSpec } from '../../src/cloud/simulated/index.js';
import { JobStatus } from '../../src/core/job-status.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { grantConsent } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait, type SyncBody } from '../helpers/tenant-sync.js';

interface Envelope<T> {
  success: boolean;
  data: T;
  error?: { code: string; message: string; details: Record<string, unknown> };
}
interface OnboardedTenant {
  id: string;
  name: string;
  domain: string;
  domains: string[];
  health: string;
  lastSyncedAt: string | null;
}

const ONBOARD = /* GraphQL */ `
  mutation Onboard($externalId: String!) {
    onboardTenant(input: { externalId: $externalId }) {
      id
      name
      domain
      domains
      health
      lastSyncedAt
    }
  }
`;

let app: SharedApp;
let org: OrganizationWithKeys;
let cloud: SimulatedCloud;

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ jobs: true }));
  cloud = app.deps.clouds as SimulatedCloud;
});
afterAll(() => app.stop());

/** A fresh tenant in the simulated cloud (its own domains, so tests do not collide) that granted `org`. */
async function cloudTenant(fields: Partial<SimulatedTenantSpec> = {}): Promise<string> {
  const slug = `t${randomUUID().slice(0, 8)}`;
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: `Sync Test ${slug}`,
    domains: [`${slug}.example.com`, `${slug}.onmicrosoft.com`],
    seed: 4242,
    employees: 40,
    hybrid: true,
    ...fields,
  });
  await grantConsent(app, tenant.externalId, org.organization.id);
  return tenant.externalId;
}

async function onboard(externalId: string): Promise<OnboardedTenant> {
  const res = await app.graphql<{ onboardTenant: OnboardedTenant }>(org.keys.write, ONBOARD, { externalId });
  expect(res.body.errors).toBeUndefined();
  return res.body.data!.onboardTenant;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    `select count(*)::int as count from (${sql}) x`,
    params,
  );
  return rows[0].count;
}

const zeroSummary = (summary: Record<string, number> | null) =>
  Object.fromEntries(Object.keys(summary ?? {}).map((key) => [key, 0]));

describe('onboardTenant', () => {
  it('brings a cloud tenant in with its name and domains, unsynced until its first sync', async () => {
    const externalId = await cloudTenant();
    const tenant = await onboard(externalId);
    const upstream = await cloud.getTenant(externalId);
    expect(tenant).toMatchObject({
      name: upstream.displayName,
      domain: upstream.domains[0],
      domains: upstream.domains,
      health: 'CRITICAL',
      lastSyncedAt: null,
    });
    expect(await count('select 1 from users where tenant_id = $1', [tenant.id])).toBe(0);
  });

  it('refuses a second onboarding (409), an unknown cloud tenant (403: no grant), a Read key (403) and an empty id (400)', async () => {
    const externalId = await cloudTenant();
    await onboard(externalId);
    const again = await app.graphql(org.keys.write, ONBOARD, { externalId });
    expect(again.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const unknown = await app.graphql(org.keys.write, ONBOARD, { externalId: randomUUID() });
    // A partner cannot tell an unknown tenant from one that did not grant it access (tenant-consent.ts).
    expect(unknown.body.errors?.[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'CONSENT_REQUIRED' },
    });
    const readOnly = await app.graphql(org.keys.read, ONBOARD, { externalId: await cloudTenant() });
    expect(readOnly.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const empty = await app.graphql(org.keys.write, ONBOARD, { externalId: '' });
    expect(empty.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(empty.body.errors?.[0].extensions.details?.fields).toEqual([
      expect.objectContaining({ field: 'externalId' }),
    ]);
  });

  it('keeps a cloud tenant in one environment: the live environment gets 409 for the sandbox’s tenant', async () => {
    const externalId = await cloudTenant();
    await onboard(externalId);
    const live = await app.graphql<{ onboardTenant: OnboardedTenant }>(org.liveAdminKey, ONBOARD, {
      externalId,
    });
    expect(live.body.errors?.[0].extensions.code).toBe('CONFLICT');
  });
});

describe('POST /v1/tenants/:id/sync', () => {
  let tenant: OnboardedTenant;
  let externalId: string;
  let first: SyncBody;

  beforeAll(async () => {
    externalId = await cloudTenant({ employees: 60 });
    tenant = await onboard(externalId);
    first = await syncAndWait(app, org, tenant.id);
  });

  it('imports users, licenses, assignments and groups, and completes at 100%', async () => {
    const [users, skus, assignments, groups] = await Promise.all([
      cloud.listUsers(externalId),
      cloud.listSkus(externalId),
      cloud.listLicenseAssignments(externalId),
      cloud.listGroups(externalId),
    ]);
    expect(first).toMatchObject({ status: JobStatus.COMPLETED, progress: 100, error: null });
    const memberships = groups.reduce((sum, group) => sum + group.memberExternalIds.length, 0);
    expect(first.summary).toMatchObject({
      usersCreated: users.length,
      usersUpdated: 0,
      usersDeleted: 0,
      licensesCreated: skus.length,
      assignmentsCreated: assignments.length,
      groupsCreated: groups.length,
      membershipsCreated: memberships,
    });
    expect(await count('select 1 from users where tenant_id = $1', [tenant.id])).toBe(users.length);
    expect(await count("select 1 from users where tenant_id = $1 and source = 'Synced'", [tenant.id])).toBe(
      users.filter((u) => u.onPremisesSynced).length,
    );
    expect(
      await count('select 1 from users where tenant_id = $1 and deleted_at is not null', [tenant.id]),
    ).toBe(users.filter((u) => u.deletedAt).length);
    expect(await count('select 1 from license_assignments where tenant_id = $1', [tenant.id])).toBe(
      assignments.length,
    );
  });

  it('maps managers and keeps seats: total from prepaid units, consumed from assignments', async () => {
    const users = await cloud.listUsers(externalId);
    const { rows } = await app.pool.query<{ external_id: string; manager: string | null }>(
      `select u.external_id, m.external_id as manager from users u left join users m on m.id = u.manager_id
        where u.tenant_id = $1`,
      [tenant.id],
    );
    const managerOf = new Map(rows.map((row) => [row.external_id, row.manager]));
    for (const user of users) expect(managerOf.get(user.externalId)).toBe(user.managerExternalId);
    expect(users.filter((u) => u.managerExternalId).length).toBeGreaterThan(30);

    const skus = await cloud.listSkus(externalId);
    const assignments = await cloud.listLicenseAssignments(externalId);
    const { rows: seats } = await app.pool.query<{ sku_id: string; total: number; consumed: number }>(
      'select sku_id, total, consumed from tenant_licenses where tenant_id = $1',
      [tenant.id],
    );
    for (const sku of skus) {
      const seat = seats.find((s) => s.sku_id === sku.skuId)!;
      expect(seat.total).toBe(sku.prepaidUnits);
      expect(seat.consumed).toBe(assignments.filter((a) => a.skuId === sku.skuId).length);
    }
  });

  it('writes tenant.synced to the outbox with the summary', async () => {
    const { rows } = await app.pool.query<{
      kind: string;
      severity: string;
      payload: Record<string, unknown>;
    }>("select kind, severity, payload from domain_events where tenant_id = $1 and kind = 'tenant.synced'", [
      tenant.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].severity).toBe('informational');
    expect(rows[0].payload).toMatchObject({
      event: 'tenant.synced',
      severity: 'informational',
      tenant: { id: tenant.id, name: tenant.name, domain: tenant.domain },
      details: first.summary,
      actionUrl: `http://app.test/tenants/${tenant.id}`,
    });
    const after = await app.request<Envelope<OnboardedTenant>>('GET', `/v1/tenants/${tenant.id}`, {
      key: org.keys.read,
    });
    expect(after.body.data).toMatchObject({ lastSyncedAt: app.clock.now().toISOString(), health: 'healthy' });
  });

  it('changes nothing on a second sync with no upstream change', async () => {
    const before = await app.pool.query('select * from users where tenant_id = $1 order by id', [tenant.id]);
    const second = await syncAndWait(app, org, tenant.id);
    expect(second.status).toBe(JobStatus.COMPLETED);
    expect(second.summary).toEqual(zeroSummary(first.summary));
    const after = await app.pool.query('select * from users where tenant_id = $1 order by id', [tenant.id]);
    expect(after.rows).toEqual(before.rows);
  });

  it('picks up upstream changes: an edited user, a deleted user, a removed user, new seats, a restored user', async () => {
    const users = await cloud.listUsers(externalId);
    const assignments = await cloud.listLicenseAssignments(externalId);
    const active = users.filter((u) => !u.deletedAt && u.userType === 'Member' && !u.isServiceAccount);
    const licensed = active.filter((u) => assignments.some((a) => a.userExternalId === u.externalId));
    const [edited, deleted, removed] = licensed;
    const restored = users.find((u) => u.deletedAt)!;
    const [sku] = await cloud.listSkus(externalId);

    await app.pool.query(
      `update sim_cloud_objects set data = data || '{"jobTitle": "Chief Happiness Officer"}'::jsonb
        where tenant_external_id = $1 and kind = 'user' and external_id = $2`,
      [externalId, edited.externalId],
    );
    await cloud.deleteUser(externalId, deleted.externalId);
    await app.pool.query(
      `delete from sim_cloud_objects where tenant_external_id = $1 and (
         (kind = 'user' and external_id = $2) or (kind = 'assignment' and external_id like $2 || ':%'))`,
      [externalId, removed.externalId],
    );
    await app.pool.query(
      `update sim_cloud_objects set data = jsonb_set(data, '{prepaidUnits}', to_jsonb((data->>'prepaidUnits')::int + 10))
        where tenant_external_id = $1 and kind = 'sku' and external_id = $2`,
      [externalId, sku.skuId],
    );
    await app.pool.query(
      `update sim_cloud_objects set data = data || '{"deletedAt": null, "accountEnabled": true}'::jsonb
        where tenant_external_id = $1 and kind = 'user' and external_id = $2`,
      [externalId, restored.externalId],
    );
    const removedAssignments = assignments.filter(
      (a) => a.userExternalId === deleted.externalId || a.userExternalId === removed.externalId,
    ).length;

    app.clock.advance(60_000);
    const third = await syncAndWait(app, org, tenant.id);
    expect(third.status).toBe(JobStatus.COMPLETED);
    expect(third.summary).toMatchObject({
      usersCreated: 0,
      usersDeleted: 2,
      usersRestored: 1,
      assignmentsRemoved: removedAssignments,
      assignmentsCreated: 0,
    });
    expect(third.summary!.usersUpdated).toBeGreaterThanOrEqual(2); // the edit + the deleted user's profile
    expect(third.summary!.licensesUpdated).toBeGreaterThanOrEqual(1);
    expect(third.summary!.membershipsRemoved).toBeGreaterThan(0);

    const row = async (user: CloudUserRecord) =>
      (
        await app.pool.query<{
          job_title: string;
          deleted_at: Date | null;
          deleted_by: string | null;
          had_licenses: boolean;
          account_status_at_deletion: string | null;
        }>(
          `select job_title, deleted_at, deleted_by, had_licenses, account_status_at_deletion
             from users where tenant_id = $1 and external_id = $2`,
          [tenant.id, user.externalId],
        )
      ).rows[0];
    expect((await row(edited)).job_title).toBe('Chief Happiness Officer');
    expect((await row(deleted)).deleted_at).not.toBeNull();
    expect((await row(removed)).deleted_at).toEqual(app.clock.now());
    expect((await row(removed)).deleted_by).toBe('system:tenant-sync');
    // The deleted-users list says what they held, though the license step then took the seats back.
    for (const gone of [deleted, removed])
      expect(await row(gone)).toMatchObject({ had_licenses: true, account_status_at_deletion: 'Enabled' });
    expect(await row(restored)).toMatchObject({
      deleted_at: null,
      had_licenses: false,
      account_status_at_deletion: null,
    });
    const { rows: seats } = await app.pool.query<{ total: number }>(
      'select total from tenant_licenses where tenant_id = $1 and sku_id = $2',
      [tenant.id, sku.skuId],
    );
    expect(seats[0].total).toBe(sku.prepaidUnits + 10);
    expect(
      await count(
        `select 1 from license_assignments a join users u on u.id = a.user_id
          where a.tenant_id = $1 and u.deleted_at is not null`,
        [tenant.id],
      ),
    ).toBe(0);
  });

  it('counts new sign-ins since the previous sync', async () => {
    app.clock.advance(60_000);
    const signIns = await cloud.advance(externalId);
    expect(signIns.some((s) => s.riskLevel !== 'none')).toBe(true);
    app.clock.advance(60_000);
    const next = await syncAndWait(app, org, tenant.id);
    expect(next.summary).toMatchObject({ newSignIns: signIns.length, usersCreated: 0 });
    expect(next.summary!.usersUpdated).toBeGreaterThan(0); // lastSignInAt moved
  });
});

describe('sync of a large tenant', () => {
  it('uses a bounded number of SQL statements (batched, no per-user round trips)', async () => {
    const externalId = await cloudTenant({ employees: 400 });
    const tenant = await onboard(externalId);
    const users = await cloud.listUsers(externalId);
    expect(users.length).toBeGreaterThan(450);
    let alertsCreated = 0;
    const statements = await app.sql.during(async () => {
      const done = await syncAndWait(app, org, tenant.id);
      expect(done.status).toBe(JobStatus.COMPLETED);
      alertsCreated = done.summary?.alertsCreated ?? 0;
    });
    // Batched directory work, plus the outbox row and fan-out of each alert.created (one event per new alert).
    expect(alertsCreated).toBeGreaterThan(0);
    expect(statements).toBeLessThan(80 + 3 * alertsCreated);
  });
});
