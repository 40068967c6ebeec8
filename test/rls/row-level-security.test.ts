import { ISOLATION_POLICY } from '../../src/db/row-level-security.js';
import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

// Isolation in PostgreSQL itself (docs/security-model.md, "Row-level security"): whatever SQL the request
// path writes, the database returns only the rows of the request's organization and environment.
// A database of the file's own (a realm app, row-level security on as by default): some checks count every
// tenant of the database. The request path's connections are the server's: raw SQL on them runs there (onServer).
let app: RealmApp;
let orgA: OrganizationWithKeys;
let orgB: OrganizationWithKeys;

beforeAll(async () => {
  ({ app, org: orgA, other: orgB } = await realmSuite({ rowLevelSecurity: true, other: true }));
  await Promise.all([
    createTenant(app, orgA.scope),
    createTenant(app, orgB.scope),
    createTenant(app, orgB.liveScope),
  ]);
});
afterAll(() => app?.stop());

/** Raw SQL on the request path's connections, in `scope`'s session (or none). */
async function rawInSession<T>(
  scope: OrganizationWithKeys['scope'] | null,
  sql: string,
  params: unknown[] = [],
) {
  return (await onServer(app, 'executeInSession', scope, sql, params)) as unknown as T[];
}

describe('row-level security', () => {
  it('covers every table with an organization_id column: enabled, forced, with the isolation policy', async () => {
    // Listed from information_schema independently of the code that creates the policies.
    const { rows } = await app.pool.query<{
      table_name: string;
      enabled: boolean;
      forced: boolean;
      policy: string | null;
    }>(
      `select col.table_name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced, p.policyname as policy
         from information_schema.columns col
         join pg_class c on c.relname = col.table_name and c.relnamespace = 'public'::regnamespace
         left join pg_policies p on p.tablename = col.table_name and p.schemaname = 'public'
                                 and p.policyname = $1
        where col.table_schema = 'public' and col.column_name = 'organization_id'
        order by col.table_name`,
      [ISOLATION_POLICY],
    );
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((row) => !row.enabled || !row.forced || !row.policy)).toEqual([]);
  });

  it('the application role sees no rows without the settings, and cannot write any', async () => {
    const client = await app.pool.connect();
    try {
      await client.query('begin');
      await client.query('set local role msp_app');
      const { rows } = await client.query<{ count: string }>('select count(*) from tenants');
      expect(rows[0].count).toBe('0');
      await expect(
        client.query(
          `insert into contacts (id, organization_id, environment) values (gen_random_uuid(), $1, 'sandbox')`,
          [orgA.organization.id],
        ),
      ).rejects.toThrow();
    } finally {
      await client.query('rollback');
      client.release();
    }
    // The service role (jobs, migrations) still sees everything.
    const { rows } = await app.pool.query<{ count: string }>('select count(*) from tenants');
    expect(Number(rows[0].count)).toBeGreaterThanOrEqual(3);
  });

  it("a query that forgets organization_id = ? returns only the session's organization and environment", async () => {
    const rowsOfA = await rawInSession<{ organization_id: string; environment: string }>(
      orgA.scope,
      'select organization_id, environment from tenants',
    );
    expect(rowsOfA).toEqual([{ organization_id: orgA.organization.id, environment: orgA.scope.environment }]);
    const rowsOfBLive = await rawInSession<{ organization_id: string; environment: string }>(
      orgB.liveScope,
      'select organization_id, environment from tenants',
    );
    expect(rowsOfBLive).toEqual([{ organization_id: orgB.organization.id, environment: 'live' }]);
    // Outside a session (background work) the service role reads across organizations.
    const all = await rawInSession<{ count: string }>(null, 'select count(*)::text as count from tenants');
    expect(Number(all[0].count)).toBeGreaterThanOrEqual(3);
  });

  it("a write in A's session cannot touch B's rows nor create rows for B", async () => {
    const updated = await rawInSession<{ id: string }>(
      orgA.scope,
      `update tenants set name = 'taken' returning id`,
    );
    expect(updated).toHaveLength(1);
    const { rows } = await app.pool.query<{ count: string }>(
      `select count(*) from tenants where name = 'taken'`,
    );
    expect(rows[0].count).toBe('1');
    await expect(
      rawInSession(orgA.scope, `update tenants set organization_id = ? returning id`, [orgB.organization.id]),
    ).rejects.toThrow(/row-level security/);
  });

  it('runs a request in its session: a GraphQL list and a REST list read through the policies', async () => {
    // The factories used the pool as the service role, so the request's connection switches to the session.
    app.sql.reset();
    const rest = await app.request<{ data: { id: string }[] }>('GET', '/v1/tenants', { key: orgA.keys.read });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(1);
    expect(app.sql.sessionSettings).toBeGreaterThan(0);
    const graphql = await app.graphql<{ tenants: { items: { id: string }[] } }>(
      orgB.keys.read,
      '{ tenants(limit: 10) { items { id } } }',
    );
    expect(graphql.body.data?.tenants.items).toHaveLength(1);
  });

  it('lets a request queue a job in its transaction (graphile_worker grants)', async () => {
    const rows = await rawInSession<{ id: string }>(
      orgA.scope,
      `select enqueue_job('rls-probe', '{}'::json, max_attempts => 1)::text as id`,
    );
    expect(rows).toHaveLength(1);
  });
});

describe('what the request path may touch besides its rows (issue #32 item 7)', () => {
  it('updates its own organization only, and never inserts or deletes one', async () => {
    const renamed = await rawInSession<{ id: string }>(
      orgA.scope,
      `update organizations set name = name where id in (?, ?) returning id`,
      [orgA.organization.id, orgB.organization.id],
    );
    expect(renamed.map((row) => row.id)).toEqual([orgA.organization.id]);
    const seen = await rawInSession<{ id: string }>(orgA.scope, 'select id from organizations');
    expect(seen.map((row) => row.id)).toEqual([orgA.organization.id]);
    await expect(
      rawInSession(orgA.scope, 'delete from organizations where id = ?', [orgA.organization.id]),
    ).rejects.toThrow(/permission denied/);
  });

  it.each([
    [
      'mikro_orm_migrations',
      'update mikro_orm_migrations set name = name where id = (select min(id) from mikro_orm_migrations)',
    ],
    ['secrets_key_checks', 'delete from secrets_key_checks'],
    ['rate_limits', "insert into rate_limits (key, points) values ('rls-test', 1)"],
  ])('is refused on %s', async (_table, sql) => {
    await expect(rawInSession(orgA.scope, sql)).rejects.toThrow(/permission denied/);
  });
});
