import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { MovableClock } from '../../src/core/clock.js';
import type { AppDeps } from '../../src/core/service-context.js';
import { openOrm } from '../../src/db/orm.js';
import {
  DEMO_AVAILABLE_TENANT,
  DEMO_ORGANIZATION_SLUG,
  DEMO_TENANTS,
  seedDemoIfEmpty,
} from '../../src/db/seeds/demo.js';
import { OUTBOX_SUBSCRIBERS } from '../../src/features.js';
import { createTestDatabase } from '../helpers/test-database.js';

const SEEDED_AT = new Date('2026-11-01T12:00:00Z');

interface Seeded {
  orm: MikroORM;
  deps: AppDeps;
}

async function seedFreshDatabase(): Promise<Seeded> {
  const orm = await openOrm({ databaseUrl: await createTestDatabase() });
  const clock = new MovableClock(SEEDED_AT);
  const deps: AppDeps = {
    clock,
    clouds: new SimulatedCloud(orm, clock),
    publicUrl: 'http://app.test',
    outboxSubscribers: OUTBOX_SUBSCRIBERS,
  };
  expect(await seedDemoIfEmpty(orm, deps)).toBe(true);
  return { orm, deps };
}

function query<T extends object>(orm: MikroORM, sql: string, params: unknown[] = []): Promise<T[]> {
  return orm.em.fork().getConnection().execute<T[]>(sql, params);
}

/** Everything a user is made of upstream, in a stable order, to compare two seeded databases. */
function directoryOf(orm: MikroORM) {
  return query(
    orm,
    `select t.domain, u.user_principal_name, u.display_name, u.job_title, u.department, u.usage_location,
            u.account_status, u.mfa_status, u.user_type, u.source, u.is_service_account, u.last_sign_in_at,
            u.deleted_at, m.user_principal_name as manager
       from users u join tenants t on t.id = u.tenant_id left join users m on m.id = u.manager_id
      order by u.user_principal_name`,
  );
}

let first: Seeded;
let second: Seeded;

beforeAll(async () => {
  first = await seedFreshDatabase();
  second = await seedFreshDatabase();
}, 120_000);
afterAll(async () => {
  await first?.orm.close();
  await second?.orm.close();
});

describe('demo seed', () => {
  it('is deterministic: two fresh databases get the same directories', async () => {
    const [a, b] = await Promise.all([directoryOf(first.orm), directoryOf(second.orm)]);
    expect(a.length).toBeGreaterThan(300);
    expect(b).toEqual(a);
    const licenses = `select t.domain, l.sku_part_number, l.total, l.consumed
                        from tenant_licenses l join tenants t on t.id = l.tenant_id order by 1, 2`;
    expect(await query(second.orm, licenses)).toEqual(await query(first.orm, licenses));
  });

  it('creates the demo organization on the Growth plan with the tenants in its sandbox only', async () => {
    const [organization] = await query<{ id: string; name: string; plan: string }>(
      first.orm,
      'select id, name, plan from organizations where slug = ?',
      [DEMO_ORGANIZATION_SLUG],
    );
    expect(organization).toMatchObject({ name: 'Demo MSP', plan: 'growth' });
    const tenants = await query<{
      environment: string;
      name: string;
      domain: string;
      last_synced_at: string;
    }>(
      first.orm,
      'select environment, name, domain, last_synced_at from tenants where organization_id = ? order by name',
      [organization.id],
    );
    expect(tenants).toHaveLength(DEMO_TENANTS.length);
    expect(new Set(tenants.map((t) => t.environment))).toEqual(new Set(['sandbox']));
    expect(tenants.map((t) => t.name)).toContain('Contoso Dental Group');
    expect(tenants.find((t) => t.name === 'Contoso Dental Group')?.domain).toBe('contosodental.com');
    for (const tenant of tenants) expect(new Date(tenant.last_synced_at)).toEqual(SEEDED_AT);
    const events = await query<{ kind: string }>(
      first.orm,
      'select kind from domain_events where organization_id = ?',
      [organization.id],
    );
    // Each first sync announces the risky sign-ins the simulated cloud already holds (security.risky_signin).
    const kinds = events.map((e) => e.kind);
    expect(kinds.filter((kind) => kind === 'tenant.synced')).toHaveLength(DEMO_TENANTS.length);
    // The first sync also announces each tenant's alerts (docs/security.md).
    // The user-management demo's import creates users and its offboarding updates the leaver.
    expect(new Set(kinds)).toEqual(
      new Set(['tenant.synced', 'security.risky_signin', 'alert.created', 'user.created', 'user.updated']),
    );
  });

  it('has hundreds of users of every kind: guests, service accounts, synced, no usage location, deleted', async () => {
    const [counts] = await query<Record<string, number>>(
      first.orm,
      `select count(*)::int as users,
              count(*) filter (where user_type = 'Guest' and user_principal_name like '%#EXT#@%.onmicrosoft.com')::int as guests,
              count(*) filter (where is_service_account and account_status = 'Disabled')::int as service_accounts,
              count(*) filter (where source = 'Synced')::int as synced,
              count(*) filter (where usage_location is null and user_type = 'Member')::int as members_without_location,
              count(*) filter (where deleted_at is not null)::int as deleted,
              count(*) filter (where manager_id is not null)::int as with_manager,
              count(*) filter (where last_sign_in_at < ?::timestamptz - interval '90 days' and user_type = 'Guest')::int as stale_guests
         from users`,
      [SEEDED_AT.toISOString()],
    );
    expect(counts.users).toBeGreaterThanOrEqual(300);
    expect(counts.guests).toBeGreaterThanOrEqual(20);
    expect(counts.service_accounts).toBeGreaterThanOrEqual(DEMO_TENANTS.length * 2);
    expect(counts.synced).toBeGreaterThan(50);
    expect(counts.members_without_location).toBeGreaterThan(5);
    expect(counts.deleted).toBeGreaterThan(0);
    expect(counts.with_manager).toBeGreaterThan(counts.users / 2);
    expect(counts.stale_guests).toBeGreaterThan(0);
  });

  it('keeps licenses consistent: within seats, only licensable users, one nearly full suite per tenant', async () => {
    const licenses = await query<{ tenant_id: string; total: number; consumed: number; assigned: number }>(
      first.orm,
      `select l.tenant_id, l.total, l.consumed,
              (select count(*)::int from license_assignments a where a.tenant_id = l.tenant_id and a.sku_id = l.sku_id) as assigned
         from tenant_licenses l`,
    );
    expect(licenses.length).toBeGreaterThan(DEMO_TENANTS.length * 2);
    for (const license of licenses) {
      expect(license.consumed).toBe(license.assigned);
      expect(license.consumed).toBeLessThanOrEqual(license.total);
    }
    const tenantIds = new Set(licenses.map((l) => l.tenant_id));
    for (const tenantId of tenantIds) {
      const own = licenses.filter((l) => l.tenant_id === tenantId);
      expect(own.some((l) => l.total - l.consumed === 1)).toBe(true);
      expect(own.some((l) => l.total - l.consumed > 1)).toBe(true);
    }
    const [wrong] = await query<{ count: number }>(
      first.orm,
      `select count(*)::int as count from license_assignments a join users u on u.id = a.user_id
        where u.usage_location is null or u.is_service_account or u.user_type = 'Guest' or u.deleted_at is not null`,
    );
    expect(wrong.count).toBe(0);
    const [groups] = await query<{ groups: number; memberships: number }>(
      first.orm,
      'select (select count(*)::int from groups) as groups, (select count(*)::int from group_memberships) as memberships',
    );
    expect(groups.groups).toBeGreaterThan(DEMO_TENANTS.length * 4);
    expect(groups.memberships).toBeGreaterThan(500);
  });

  it('leaves one more customer in the simulated cloud, not onboarded, to try onboarding with', async () => {
    const rows = await query<{ external_id: string }>(first.orm, 'select external_id from sim_cloud_tenants');
    expect(rows.map((r) => r.external_id)).toContain(DEMO_AVAILABLE_TENANT.externalId);
    const onboarded = await query(first.orm, 'select 1 from tenants where external_id = ?', [
      DEMO_AVAILABLE_TENANT.externalId,
    ]);
    expect(onboarded).toHaveLength(0);
  });

  it('has every demo customer grant the demo organization delegated access, and nobody else', async () => {
    const grants = await query<{ tenant_external_id: string; slug: string }>(
      first.orm,
      `select g.tenant_external_id, o.slug from sim_cloud_tenant_grants g
         join organizations o on o.id = g.partner_organization_id where g.revoked_at is null`,
    );
    expect(grants.map((g) => g.tenant_external_id).sort()).toEqual(
      [...DEMO_TENANTS, DEMO_AVAILABLE_TENANT].map((spec) => spec.externalId).sort(),
    );
    expect(new Set(grants.map((g) => g.slug))).toEqual(new Set([DEMO_ORGANIZATION_SLUG]));
  });

  it('does nothing when the demo organization exists', async () => {
    const before = await query<{ count: number }>(first.orm, 'select count(*)::int as count from users');
    expect(await seedDemoIfEmpty(first.orm, first.deps)).toBe(false);
    expect(await query(first.orm, 'select count(*)::int as count from users')).toEqual(before);
    expect(await query(first.orm, 'select count(*)::int as count from organizations')).toEqual([
      { count: 1 },
    ]);
  });

  it('shows the user-management area at work: a finished bulk import and a finished offboarding', async () => {
    const imports = await query<{ status: string; created_rows: number; failed_rows: number }>(
      first.orm,
      'select status, created_rows, failed_rows from user_imports',
    );
    expect(imports).toEqual([{ status: 'Completed', created_rows: 3, failed_rows: 0 }]);
    const [offboarding] = await query<{ status: string; steps: Array<{ name: string; status: string }> }>(
      first.orm,
      'select status, steps from user_offboardings',
    );
    expect(offboarding.status).toBe('Completed');
    const step = (name: string) => offboarding.steps.find((s) => s.name === name)?.status;
    expect(step('convertMailbox')).toBe('Succeeded');
    expect(step('removeLicenses')).toBe('Succeeded');
    // The queued copies of both jobs find their operation finished: a worker picking them up does nothing.
    const [{ count }] = await query<{ count: number }>(
      first.orm,
      `select count(*)::int as count from user_imports where run_attempts <> 1
        union all select count(*)::int from user_offboardings where run_attempts <> 1 order by 1 desc limit 1`,
    );
    expect(count).toBe(0);
  });

  it('records a few blocked enrollment attempts in every demo tenant, each decided by its device policy', async () => {
    const rows = await query<{ domain: string; reason: string; policy_name: string; count: number }>(
      first.orm,
      `select t.domain, b.reason, b.policy_name, count(*)::int as count
         from blocked_enrollment_attempts b join tenants t on t.id = b.tenant_id
        group by 1, 2, 3 order by 1, 2`,
    );
    const perTenant = new Map<string, number>();
    for (const row of rows) perTenant.set(row.domain, (perTenant.get(row.domain) ?? 0) + row.count);
    expect(perTenant.size).toBe(DEMO_TENANTS.length);
    // A few, not most: about one user in four tried to enroll, and most attempts meet the policy.
    for (const count of perTenant.values()) expect(count).toBeGreaterThanOrEqual(1);
    const [{ attempts }] = await query<{ attempts: number }>(
      first.orm,
      `select count(*)::int as attempts from sim_cloud_objects where kind = 'enrollment_attempt'`,
    );
    const blocked = [...perTenant.values()].reduce((a, b) => a + b, 0);
    expect(blocked).toBeLessThan(attempts / 2);
    expect(new Set(rows.map((row) => row.policy_name))).toEqual(new Set(['Company device standard']));
    expect(new Set(rows.map((row) => row.reason)).size).toBeGreaterThanOrEqual(2);
  });
});
