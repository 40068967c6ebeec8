import { positional } from '../../src/core/lean-statement.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { LIST_USERS } from '../../src/users/user.rest.js';
import {
  createLicenseUser,
  createSku,
  createTenant,
  giveLicense,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import { expectPagesReadTheirRows, multiplyRows } from '../helpers/list-plan.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import type { RoundTripRecorder } from '../helpers/round-trips.js';
import { insertSecurityRows } from '../security/security-kit.js';

/**
 * Lean reads as pg parameters and named prepared statements (src/core/lean-statement.ts, issue #31): the text
 * depends on the list's shape only, values travel apart, a connection prepares each shape once, row-level
 * security holds whichever organization prepared it, and the generic plan PostgreSQL may settle on still reads
 * O(limit) rows.
 */
describe('positional: `?` placeholders as `$n`', () => {
  it('numbers the values in order and leaves the text free of them', () => {
    expect(positional('a = ? and b >= ? limit ? offset ?', ['x', 3, 25, 0])).toEqual({
      text: 'a = $1 and b >= $2 limit $3 offset $4',
      values: ['x', 3, 25, 0],
    });
  });

  it('turns `in (?)` / `not in (?)` of an array into any/all: one text whatever the number of values', () => {
    const one = positional('"s" in (?) and id not in (?) and t = ?', [['a'], ['b', 'c'], 't']);
    const two = positional('"s" in (?) and id not in (?) and t = ?', [['a', 'd'], ['b'], 't']);
    expect(one.text).toBe('"s" = any($1) and id <> all($2) and t = $3');
    expect(two.text).toBe(one.text);
    expect(two.values).toEqual([['a', 'd'], ['b'], 't']);
  });

  it('sends instants as ISO text, keeps an escaped question mark, refuses what it cannot say', () => {
    const at = new Date('2026-11-27T22:00:00.125Z');
    expect(positional('x >= ? and y \\? z', [at])).toEqual({
      text: 'x >= $1 and y ? z',
      values: ['2026-11-27T22:00:00.125Z'],
    });
    expect(() => positional('x = ?', [['a']])).toThrow(/only as `in \(\?\)`/);
    expect(() => positional('x = ? and y = ?', ['a'])).toThrow(/more placeholders/);
    expect(() => positional('x = ?', ['a', 'b'])).toThrow(/1 placeholders for 2 values/);
    expect(() => positional('x = ??', ['a'])).toThrow(/`\?\?`/);
  });
});

describe('lean reads on the wire', () => {
  let app: RealmApp;
  let org: OrganizationWithKeys;
  let other: OrganizationWithKeys;
  let tenant: Tenant;
  /** Every statement the server's pg clients send (round-trips.ts), from before its pools connect. */
  let recorder: RoundTripRecorder;

  beforeAll(async () => {
    ({ app, org, other, tenant } = await realmSuite({
      rowLevelSecurity: true,
      other: true,
      tenant: true,
      recordRoundTrips: true,
    }));
    recorder = await onServer(app, 'roundTripRecorder');
    await createTenant(app, other.scope);
    const sku = await createSku(app, tenant, { total: 100 });
    for (let i = 0; i < 6; i++) {
      const user = await createLicenseUser(app, tenant);
      if (i % 2 === 0) await giveLicense(app, tenant, user, sku);
    }
  }, 120_000);
  afterAll(() => app?.stop());

  /** `runLeanStatement` on the server's root EntityManager, in `caller`'s organization session. */
  const leanStatement = <R>(caller: OrganizationWithKeys, sql: string) =>
    onServer(app, 'leanStatementIn', caller.scope, sql, [1, 1]) as Promise<R[]>;

  it('a users list is one named statement, its values apart; REST and GraphQL, any page, the same name', async () => {
    const second = await createTenant(app, org.scope);
    await createLicenseUser(app, second);
    const sent = await recorder.during(async () => {
      const rest = await app.request('GET', `/v1/tenants/${tenant.id}/users?limit=5&page=2`, {
        key: org.keys.admin,
      });
      expect(rest.status).toBe(200);
      const graphql = await app.graphql<{ users: { items: unknown[] } }>(org.keys.admin, LIST_USERS, {
        tenantId: second.id,
        limit: 25,
      });
      expect(graphql.body.errors).toBeUndefined();
    });
    const users = sent
      .filter((statement) => statement.name?.startsWith('lean_'))
      .map(({ name, sql, values }) => ({ name, text: sql, values }))
      .filter((statement) => statement.text.includes('from "users"'));
    expect(users).toHaveLength(2);
    expect(users[1].name).toBe(users[0].name);
    expect(users[1].text).toBe(users[0].text);
    for (const id of [tenant.id, second.id, org.scope.organizationId])
      expect(users[0].text).not.toContain(id);
    expect(users[0].values).toEqual(expect.arrayContaining([tenant.id, org.scope.organizationId, 5, 5]));
    expect(users[1].values).toEqual(expect.arrayContaining([second.id, 25, 0]));
  });

  it('a statement prepared on a connection answers each organization with its own rows only', async () => {
    // A text without any scope condition: only row-level security keeps the organizations apart. Sequential
    // reads take the same idle connection again, so one prepared statement serves both organizations, past
    // PostgreSQL's five custom plans (a generic plan evaluates the session's settings at each execution).
    const seen = new Map<number, Set<string>>();
    for (let round = 0; round < 8; round++) {
      for (const caller of [org, other]) {
        const rows = await leanStatement<{ organization_id: string; pid: number }>(
          caller,
          'select organization_id, pg_backend_pid() as pid from tenants where ? = ?',
        );
        expect(rows.length).toBeGreaterThan(0);
        expect(new Set(rows.map((row) => row.organization_id))).toEqual(new Set([caller.organization.id]));
        const organizations = seen.get(rows[0].pid) ?? new Set<string>();
        organizations.add(caller.organization.id);
        seen.set(rows[0].pid, organizations);
      }
    }
    expect([...seen.values()].some((organizations) => organizations.size === 2)).toBe(true);
  });

  it('named statements run their generic plan from the first execution (no custom plan ever)', async () => {
    // Left to choose, PostgreSQL costed a generic `limit $n` as a tenth of the tenant and kept re-planning the
    // users page on the bench's 100,000 users (docs/benchmarks.md "ninth round"); src/db/orm.ts forces it.
    for (let i = 0; i < 3; i++)
      expect(
        (await app.request('GET', `/v1/tenants/${tenant.id}/users?limit=5`, { key: org.keys.admin })).status,
      ).toBe(200);
    const plans = await leanStatement<{ generic: string; custom: string; mode: string }>(
      org,
      `select coalesce(sum(generic_plans), 0) as generic, coalesce(sum(custom_plans), 0) as custom,
              current_setting('plan_cache_mode') as mode
         from pg_prepared_statements where name like 'lean\\_%' and ? = ?`,
    );
    expect(plans[0].mode).toBe('force_generic_plan');
    expect(Number(plans[0].custom)).toBe(0);
    expect(Number(plans[0].generic)).toBeGreaterThan(0);
  });
});

describe('the generic plans of lean lists read O(limit) rows', () => {
  const ROWS = 3000;
  const NEIGHBOURS = 12;
  let app: RealmApp;
  let org: OrganizationWithKeys;
  let tenant: Tenant;

  beforeAll(async () => {
    // A database of its own (a realm server's): the plans depend on the whole tables' statistics.
    ({ app, org, tenant } = await realmSuite({ tenant: true }));
    const sku = await createSku(app, tenant, { total: 10 });
    const user = await createLicenseUser(app, tenant);
    await giveLicense(app, tenant, user, sku);
    await multiplyRows(app, 'users', user.id, ROWS);
    await multiplyRows(app, 'tenant_licenses', (await createSku(app, tenant, { total: 1 })).id, ROWS);
    const { alertId, deviceId } = await insertSecurityRows(app, org.scope, tenant);
    await multiplyRows(app, 'security_alerts', alertId, ROWS);
    await multiplyRows(app, 'devices', deviceId, ROWS);
    // Other tenants' rows, as every real table holds: a generic plan estimates a tenant's share from the number
    // of tenants (with one tenant, "tenant_id = $3" would be every row and a sequential scan the right plan).
    // SKUs stay a tenant's few: tenant_licenses has no index for thousands per tenant.
    for (let i = 0; i < NEIGHBOURS; i++) {
      const neighbour = await createTenant(app, org.scope);
      const someone = await createLicenseUser(app, neighbour);
      await multiplyRows(app, 'users', someone.id, ROWS / 10);
      const rows = await insertSecurityRows(app, org.scope, neighbour);
      await multiplyRows(app, 'security_alerts', rows.alertId, ROWS / 10);
      await multiplyRows(app, 'devices', rows.deviceId, ROWS / 10);
    }
    // A status filter selects a minority, as in a real tenant: one alert in ten open (copies are a second apart).
    await app.pool.query(
      `update security_alerts set status = 'Resolved' where extract(epoch from created_at)::bigint % 10 <> 0`,
    );
    for (const table of ['users', 'tenant_licenses', 'security_alerts', 'devices'])
      await app.pool.query(`vacuum analyze ${table}`);
  }, 180_000);
  afterAll(() => app?.stop());

  it.each([
    ['users', () => `/v1/tenants/${tenant.id}/users`],
    ['licenses', () => `/v1/tenants/${tenant.id}/licenses`],
    ['devices', () => `/api/security/device-security?tenantId=${tenant.id}`],
  ])('%s (pages 1 and 3, the custom and the generic plan)', async (_name, pathOf) => {
    await expectPagesReadTheirRows(
      app,
      pathOf(),
      { key: org.keys.admin, scope: org.scope },
      25,
      [1, 3],
      true,
    );
  });

  it.each([
    ['alerts of a status', () => `/api/security/alerts?status=New&tenantId=${tenant.id}`],
    ['users, searched', () => `/api/user-management-identity/users?tenantId=${tenant.id}&search=zqx`],
  ])('%s: a filtered page is not prepared, it is planned with its values', async (_name, pathOf) => {
    // Under a forced generic plan the alerts of a status read ~250 rows for a page of 25 (the selectivity of
    // the open status unknown); planned with the value, the page reads O(limit) rows.
    await expectPagesReadTheirRows(app, pathOf(), { key: org.keys.admin, scope: org.scope });
    expect(app.sql.leanStatements.map((statement) => statement.named)).toEqual([false]);
    // Its values in its text, no parameters: planned with them whatever plan_cache_mode says (src/db/orm.ts).
    expect(app.sql.leanStatements.map((statement) => statement.values)).toEqual([[]]);
  });
});
