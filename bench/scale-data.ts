import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { ApiKeyService } from '../src/api-keys/api-key.service.js';
import { systemClock } from '../src/core/clock.js';
import { PermissionLevel } from '../src/core/permissions.js';
import { Environment, type Scope } from '../src/core/scope.js';
import type { BenchConfig } from './config.js';
import { vacuumUntilVisible } from './database.js';

export interface ScaledData {
  scope: Scope;
  hotTenantId: string;
  /** An Admin sandbox key of the bench organization. */
  apiKey: string;
  counts: { tenants: number; users: number; hotTenantActiveUsers: number; licenseAssignments: number };
  seconds: number;
}

/** Fixed ids and timestamps (md5 of a name, as a uuid) make every run's data identical. */
const ORGANIZATION_ID_SQL = `md5('bench-organization')::uuid`;
const BASE_TIME = '2026-06-01T00:00:00Z';
const ENVIRONMENT = Environment.SANDBOX;

/**
 * Tenant number of user number g: users 1..hot belong to tenant 1 (the hot tenant, and the newest users),
 * the rest are spread round-robin over tenants 2..T. $2 = hot tenant users, $3 = tenants.
 */
const TENANT_NUMBER_SQL = `(case when g <= $2::int then 1 else 2 + (g - $2::int - 1) % ($3::int - 1) end)`;
const TENANT_OF_USER_SQL = `md5('bench-tenant-' || ${TENANT_NUMBER_SQL})::uuid`;
const USER_ID_SQL = `md5('bench-user-' || g)::uuid`;
/** Every 50th user is soft-deleted: lists must leave them out. */
const IS_DELETED_SQL = `g % 50 = 0`;

const SKUS = [
  { n: 1, partNumber: 'ENTERPRISEPACK', name: 'Office 365 E3' },
  { n: 2, partNumber: 'EMS', name: 'Enterprise Mobility + Security E3' },
  { n: 3, partNumber: 'POWER_BI_PRO', name: 'Power BI Pro' },
];

const STATEMENTS: Array<{ label: string; sql: string; params: (config: BenchConfig) => unknown[] }> = [
  {
    label: 'organization',
    // Custom plan without a contracted number = unlimited: the rate limiter never refuses a bench request.
    sql: `insert into organizations (id, slug, name, plan, custom_rate_limit_per_minute, created_at)
          values (${ORGANIZATION_ID_SQL}, 'bench', 'Bench MSP', 'custom', null, $1)`,
    params: () => [BASE_TIME],
  },
  {
    label: 'tenants',
    sql: `insert into tenants (id, organization_id, environment, name, domain, domains, external_id, status,
            password_min_length, password_require_complexity, last_synced_at, created_at)
          select md5('bench-tenant-' || n)::uuid, ${ORGANIZATION_ID_SQL}, '${ENVIRONMENT}', 'Bench tenant ' || n,
            'tenant-' || n || '.bench.example', array['tenant-' || n || '.bench.example'], 'bench-ext-tenant-' || n,
            'active', 8, true, $1::timestamptz, $1::timestamptz - n * interval '1 minute'
          from generate_series(1, $2::int) n`,
    params: (config) => [BASE_TIME, config.tenants],
  },
  {
    label: 'users',
    sql: `insert into users (id, organization_id, environment, tenant_id, external_id, display_name, first_name,
            last_name, user_principal_name, job_title, department, company_name, office_location, business_phone,
            mobile_phone, employee_id, employee_type, usage_location, account_status, mfa_status, user_type, source,
            is_service_account, last_sign_in_at, created_at, updated_at, deleted_at, deleted_by)
          select ${USER_ID_SQL}, ${ORGANIZATION_ID_SQL}, '${ENVIRONMENT}', ${TENANT_OF_USER_SQL},
            'bench-ext-user-' || g, 'User ' || g, 'User', 'Number' || g,
            'user' || g || '@tenant-' || ${TENANT_NUMBER_SQL} || '.bench.example',
            (array['Engineer', 'Accountant', 'Sales rep', 'Support agent'])[1 + g % 4],
            (array['Engineering', 'Finance', 'Sales', 'Support'])[1 + g % 4],
            'Bench Corp', 'Floor ' || (1 + g % 9), '+1 555 0100', null, 'E' || g, 'Employee', 'US',
            case when g % 17 = 0 then 'Disabled' else 'Enabled' end,
            (array['Enabled', 'Disabled', 'Enforced'])[1 + g % 3],
            case when g % 20 = 0 then 'Guest' else 'Member' end,
            case when g % 2 = 0 then 'Synced' else 'Cloud' end,
            false, $1::timestamptz - (g % 1000) * interval '1 hour',
            $1::timestamptz - g * interval '1 second', $1::timestamptz - g * interval '1 second',
            case when ${IS_DELETED_SQL} then $1::timestamptz end, case when ${IS_DELETED_SQL} then 'bench' end
          from generate_series(1, $4::int) g`,
    params: (config) => [BASE_TIME, config.hotTenantUsers, config.tenants, config.users],
  },
  {
    label: 'tenant licenses',
    sql: `insert into tenant_licenses (id, organization_id, environment, tenant_id, sku_id, sku_part_number, name,
            total, consumed)
          select md5('bench-tenant-license-' || t.n || '-' || s.n)::uuid, ${ORGANIZATION_ID_SQL}, '${ENVIRONMENT}',
            md5('bench-tenant-' || t.n)::uuid, md5('bench-sku-' || s.n)::uuid, s.part_number, s.name, 0, 0
          from generate_series(1, $1::int) as t(n)
          cross join jsonb_to_recordset($2::jsonb) as s(n int, part_number text, name text)`,
    params: (config) => [
      config.tenants,
      JSON.stringify(SKUS.map((sku) => ({ n: sku.n, part_number: sku.partNumber, name: sku.name }))),
    ],
  },
  {
    label: 'license assignments',
    // About two thirds of the active users hold SKU 1, a quarter SKU 2, a tenth SKU 3; deleted users hold none.
    sql: `insert into license_assignments (id, organization_id, environment, tenant_id, user_id, sku_id, assigned_at)
          select md5('bench-assignment-' || g || '-' || s)::uuid, ${ORGANIZATION_ID_SQL}, '${ENVIRONMENT}',
            ${TENANT_OF_USER_SQL}, ${USER_ID_SQL}, md5('bench-sku-' || s)::uuid, $1::timestamptz
          from generate_series(1, $4::int) g cross join generate_series(1, 3) s
          where not (${IS_DELETED_SQL})
            and ((s = 1 and g % 3 <> 0) or (s = 2 and g % 4 = 0) or (s = 3 and g % 10 = 0))`,
    params: (config) => [BASE_TIME, config.hotTenantUsers, config.tenants, config.users],
  },
  {
    label: 'seat counters',
    sql: `update tenant_licenses tl set consumed = c.count, total = c.count + 50
          from (select tenant_id, sku_id, count(*)::int as count from license_assignments group by 1, 2) c
          where c.tenant_id = tl.tenant_id and c.sku_id = tl.sku_id`,
    params: () => [],
  },
];

/**
 * Fills the empty bench database with set-based statements (generate_series, one statement per table),
 * in one transaction, then ANALYZE so the planner sees the real sizes.
 */
export async function scaleData(
  config: BenchConfig,
  orm: MikroORM,
  pool: pg.Pool,
  log: (message: string) => void,
): Promise<ScaledData> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const statement of STATEMENTS) {
      const stepStarted = performance.now();
      const result = await client.query(statement.sql, statement.params(config));
      log(`  ${statement.label}: ${result.rowCount ?? 0} rows in ${msSince(stepStarted)} ms`);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  await pool.query('analyze');
  // As autovacuum leaves a table at rest, before any pass: the page's total is an index-only scan, which with
  // the visibility map unset visits every row's heap page (the users page's named statement, settled on its
  // generic plan: 417 shared buffers and ~0.45 ms more PostgreSQL CPU a request for the hot tenant, against
  // 87); and autovacuum's own run landed in whichever pass was under way (docs/benchmarks.md "ninth round").
  for (const table of ['users', 'license_assignments']) await vacuumUntilVisible(pool, table, log);

  const ids = await pool.query<{ organization_id: string; hot_tenant_id: string }>(
    `select ${ORGANIZATION_ID_SQL} as organization_id, md5('bench-tenant-1')::uuid as hot_tenant_id`,
  );
  const { organization_id: organizationId, hot_tenant_id: hotTenantId } = ids.rows[0];
  const counts = await pool.query<{
    tenants: number;
    users: number;
    hot: number;
    assignments: number;
  }>(
    `select (select count(*)::int from tenants) as tenants, (select count(*)::int from users) as users,
       (select count(*)::int from users where tenant_id = $1 and deleted_at is null) as hot,
       (select count(*)::int from license_assignments) as assignments`,
    [hotTenantId],
  );
  const scope: Scope = { organizationId, environment: ENVIRONMENT };
  const { secret } = await new ApiKeyService({ em: orm.em.fork(), scope, clock: systemClock }).create({
    name: 'bench admin key',
    level: PermissionLevel.ADMIN,
  });
  const row = counts.rows[0];
  return {
    scope,
    hotTenantId,
    apiKey: secret,
    counts: {
      tenants: row.tenants,
      users: row.users,
      hotTenantActiveUsers: row.hot,
      licenseAssignments: row.assignments,
    },
    seconds: (performance.now() - started) / 1000,
  };
}

function msSince(start: number): number {
  return Math.round(performance.now() - start);
}
