import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { expectSearchTouchesFewUserPages } from '../helpers/search-plan.js';
import { statementOf } from '../helpers/list-plan.js';
import { um, type ManagedUserBody } from './um-kit.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

/**
 * A tenant's user search (GET /api/user-management-identity/users?search=) on 20,000 users: its LIKE runs in
 * scoped_tenant_user_search (migration 20261225090200), so the trigram indexes serve it even under the row-level
 * security policies, and the function keeps the policy whatever its caller passes.
 */
let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let big: Tenant;
let otherTenant: Tenant;
let liveTenant: Tenant;

beforeAll(async () => {
  ({ app, org, other, tenant: big } = await realmSuite({ other: true, tenant: true }));
  await app.pool.query(
    `insert into users (id, organization_id, environment, tenant_id, external_id, display_name, first_name,
       last_name, user_principal_name, account_status, mfa_status, user_type, source, is_service_account,
       had_licenses, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, gen_random_uuid()::text, 'Person ' || md5(i::text), 'Person',
       md5(i::text), 'p' || i || '@' || $4, 'Enabled', 'Disabled', 'Member', 'Cloud', false, false, now(), now()
       from generate_series(1, 20000) as i`,
    [org.scope.organizationId, org.scope.environment, big.id, big.domain],
  );
  // The same person's name in another organization and in the live environment.
  otherTenant = await createTenant(app, other.scope);
  await createUser(app, otherTenant, { displayName: 'Needle Theirs' });
  liveTenant = await createTenant(app, org.liveScope);
  await createUser(app, liveTenant, { displayName: 'Needle Live' });
  await createUser(app, big, { displayName: 'Needle Ours' });
  // VACUUM moves the rows from the GIN pending list into the index (autovacuum does it in production).
  await app.pool.query('vacuum analyze users');
}, 120_000);
afterAll(() => app.stop());

it('the function’s match, as its owner runs it, reads the trigram indexes, not the table', async () => {
  const { rows } = await app.pool.query<{ 'QUERY PLAN': string }>(
    `explain select u.id from users u
      where u.organization_id = $1 and u.environment = $2 and u.tenant_id = $3 and u.deleted_at is null
        and (lower(u.display_name) like $4 or lower(u.user_principal_name) like $4 or lower(u.email) like $4)`,
    [org.scope.organizationId, org.scope.environment, big.id, '%c4ca4238%'],
  );
  const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
  expect(plan).toContain('users_search_display_name_trgm');
  expect(plan).toContain('users_search_upn_trgm');
  expect(plan).not.toMatch(/Seq Scan on users/);
  // And the API finds the one match among 20,000.
  const res = await um<ManagedUserBody[]>(app, 'GET', '?search=C4CA4238', {
    key: org.keys.read,
    tenantId: big.id,
  });
  expect(res.body.meta?.total).toBe(1);
});

it.each([
  ['contains', '?search=needle'],
  ['prefix', '?search=p1234%40&searchMode=prefix'],
])(
  'a %s search, as the request ran it (application role, policies): no sequential scan, few pages',
  async (_mode, query) => {
    const search = () => um<ManagedUserBody[]>(app, 'GET', query, { key: org.keys.read, tenantId: big.id });
    expect((await search()).status).toBe(200); // warm-up: caches the key
    app.sql.reset();
    const res = await search();
    expect(res.body.meta?.total).toBe(1);
    const statement = app.sql.log.map(statementOf).find((sql) => /scoped_tenant_user_search/.test(sql));
    expect(statement).toBeDefined();
    await expectSearchTouchesFewUserPages(app, statement!, org.scope);
  },
);

it('the function keeps the policy: an application-role caller gets its own organization and environment only', async () => {
  const client = await app.pool.connect();
  const found = async (organizationId: string, environment: string, tenantId: string) =>
    (
      await client.query('select id from scoped_tenant_user_search($1::uuid, $2, $3::uuid, $4)', [
        organizationId,
        environment,
        tenantId,
        '%needle%',
      ])
    ).rowCount;
  try {
    await client.query('begin');
    // The service role (jobs) names the organization it reads.
    expect(await found(other.organization.id, other.scope.environment, otherTenant.id)).toBe(1);
    await client.query(
      `select set_config('app.organization_id', $1, true), set_config('app.environment', $2, true),
              set_config('role', 'msp_app', true)`,
      [org.scope.organizationId, org.scope.environment],
    );
    expect(await found(org.scope.organizationId, org.scope.environment, big.id)).toBe(1);
    // Another organization's tenant, named with its own organization or with the caller's.
    expect(await found(other.organization.id, other.scope.environment, otherTenant.id)).toBe(0);
    expect(await found(org.scope.organizationId, org.scope.environment, otherTenant.id)).toBe(0);
    // The caller's live environment, from a sandbox session.
    expect(await found(org.scope.organizationId, org.liveScope.environment, liveTenant.id)).toBe(0);
    expect(await found(org.scope.organizationId, org.scope.environment, liveTenant.id)).toBe(0);
    // Without the settings: nothing.
    await client.query(`select set_config('app.organization_id', '', true)`);
    expect(await found(org.scope.organizationId, org.scope.environment, big.id)).toBe(0);
  } finally {
    await client.query('rollback');
    client.release();
  }
});
