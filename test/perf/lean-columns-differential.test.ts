import { getOperationAST, parse, type FieldNode } from 'graphql';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import {
  createLicenseUser,
  createSku,
  createUser,
  giveLicense,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import type { RouteData } from '../helpers/server-side-lean.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { insertSecurityRows } from '../security/security-kit.js';

/**
 * Lean pages read only the columns of the fields asked (src/core/lean-selection.ts). Differential: every GET
 * route whose document runs a pruned list, and GraphQL selections of every kind, answer exactly as with every
 * column read (the pruning switched off), while the statement sent selects fewer columns.
 *
 * On the worker's shared server: the switch is the server's (onServer `leanColumnPruning`), off only within one
 * `bothWays` (and on again at the file's end); every request and statement meanwhile is this file's.
 */
let app: SharedApp;
let tables: { versioned: RouteData[]; features: RouteData[] };
let org: OrganizationWithKeys;
let tenant: Tenant;

/**
 * The root fields whose lists are pruned today (their resolvers pass `selectedItemFields(info)`), each with a
 * column its GET routes' documents do not show and one they do.
 */
const PRUNED_LISTS: Record<string, { unread: string; read: string; tenantInQuery?: true }> = {
  users: { unread: '"invited_by"', read: '"display_name"' },
  licenses: { unread: '"tenant_id", ', read: '"sku_part_number"' },
  securityAlerts: { unread: '"external_id"', read: '"affected_entity"', tenantInQuery: true },
  securityDevices: { unread: '"open_recommendations"', read: '"exposure_score"', tenantInQuery: true },
  tenants: { unread: '"password_min_length"', read: '"last_synced_at"' },
};

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  tables = await onServer(app, 'routeTables');
  const sku = await createSku(app, tenant, { total: 10 });
  const manager = await createUser(app, tenant, { jobTitle: 'Head', department: 'Sales' });
  await createUser(app, tenant, {
    directoryRoles: ['Global Administrator'],
    managerId: manager.id,
    usageLocation: 'FR',
    accountStatus: AccountStatus.DISABLED,
  });
  for (let i = 0; i < 3; i++) await giveLicense(app, tenant, await createLicenseUser(app, tenant), sku);
  for (let i = 0; i < 2; i++) await insertSecurityRows(app, org.scope, tenant);
}, 60_000);
afterAll(async () => {
  await pruning(true);
  await app.stop();
});

const pruning = (on: boolean) => onServer(app, 'leanColumnPruning', on);

/** The answer with the columns pruned and with every column, and the statements of each. */
async function bothWays<T>(
  read: () => Promise<T>,
): Promise<{ pruned: T; full: T; sql: string[]; fullSql: string[] }> {
  await read(); // warm-up: the key is cached
  app.sql.reset();
  const pruned = await read();
  const sql = [...app.sql.log];
  await pruning(false);
  try {
    app.sql.reset();
    const full = await read();
    return { pruned, full, sql, fullSql: [...app.sql.log] };
  } finally {
    await pruning(true);
  }
}

/** The statement of a lean page (its page and total: `lean_count`) among a request's statements. */
const pageStatement = (sql: string[]) => sql.find((statement) => statement.includes('lean_count'));

const rootFieldOf = (document: string) =>
  (getOperationAST(parse(document))?.selectionSet.selections[0] as FieldNode | undefined)?.name.value;

it('every GET route of a pruned list answers as with every column, reading fewer', async () => {
  const routes = [
    ...tables.versioned.map((route) => ({ ...route, mount: '/v1' })),
    ...tables.features.map((route) => ({ ...route, mount: '/api' })),
  ].filter((route) => route.method === 'GET' && (rootFieldOf(route.operation) ?? '') in PRUNED_LISTS);
  const listed = new Set(routes.map((route) => rootFieldOf(route.operation)));
  expect([...listed].sort()).toEqual(Object.keys(PRUNED_LISTS).sort());
  for (const route of routes) {
    const columns = PRUNED_LISTS[rootFieldOf(route.operation)!];
    const query = columns.tenantInQuery ? `?limit=25&tenantId=${tenant.id}` : '?limit=25';
    const path = `${route.mount}${route.path.replace(/:[A-Za-z]+/, tenant.id)}${query}`;
    const { pruned, full, sql, fullSql } = await bothWays(() =>
      app.request('GET', path, { key: org.keys.admin }),
    );
    expect({ path, status: pruned.status }).toEqual({ path, status: 200 });
    expect((pruned.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(pruned.body).toEqual(full.body);
    // A column of the table the route's document does not show is not read; one it shows is.
    expect({ path, page: pageStatement(sql) }).toEqual({ path, page: expect.any(String) });
    expect(pageStatement(sql)).not.toContain(columns.unread);
    expect(pageStatement(sql)).toContain(columns.read);
    expect(pageStatement(fullSql)).toContain(columns.unread);
  }
});

it.each([
  [
    'every field',
    '{ id tenantId displayName userPrincipalName accountStatus privileged directoryRoles licenses managerId usageLocation lastSignInAt createdAt updatedAt deletedAt deletedBy { type id } }',
  ],
  ['a computed field and the column it reads', '{ id privileged }'],
  ['licenses only (the subquery, no column)', '{ licenses }'],
  [
    'a fragment, an inline fragment, aliases, __typename',
    '{ ...U ... on User { name: displayName } key: id __typename }',
  ],
])('GraphQL users, %s: the same answer as with every column', async (_name, items) => {
  const fragment = items.includes('...U')
    ? 'fragment U on User { userPrincipalName mfaStatus manager: managerId }'
    : '';
  const document = `query($tenantId: UUID!) {
    users(tenantId: $tenantId, limit: 25) { items ${items} pageInfo { total } } } ${fragment}`;
  const { pruned, full, sql } = await bothWays(() =>
    app.graphql<{ users: { items: unknown[] } }>(org.keys.admin, document, { tenantId: tenant.id }),
  );
  // None of these selections shows a guest's invitation: its columns are not read.
  expect(sql.find((statement) => statement.includes('lean_page'))).not.toContain('"invited_by"');
  expect(pruned.body.errors).toBeUndefined();
  expect(pruned.body.data?.users.items.length).toBeGreaterThan(3);
  expect(pruned.body).toEqual(full.body);
});

it.each([
  ['licenses, `available` (a getter over the seat counts)', 'licenses', '{ skuId available }', '"consumed"'],
  [
    'alerts, their notes (loaders by id)',
    'securityAlerts',
    '{ id title commentCount comments { text } }',
    '"title"',
  ],
  [
    'devices, their timeline (a loader by id)',
    'securityDevices',
    '{ deviceName timeline { kind } }',
    '"device_name"',
  ],
  [
    'tenants, every computed field',
    'tenants',
    '{ id passwordPolicy { minLength requireComplexity } cloudPermissions { checkedAt } health }',
    '"password_require_complexity"',
  ],
])('GraphQL %s: the same answer as with every column', async (_name, field, items, read) => {
  const document =
    field === 'tenants'
      ? `query { tenants(limit: 25) { items ${items} pageInfo { total } } }`
      : `query($tenantId: UUID!) { ${field}(tenantId: $tenantId, limit: 25) { items ${items} pageInfo { total } } }`;
  const { pruned, full, sql, fullSql } = await bothWays(() =>
    app.graphql<Record<string, { items: unknown[] }>>(org.keys.admin, document, { tenantId: tenant.id }),
  );
  expect(pruned.body.errors).toBeUndefined();
  expect(pruned.body.data?.[field].items.length).toBeGreaterThan(0);
  expect(pruned.body).toEqual(full.body);
  expect(pageStatement(sql)).toContain(read);
  expect(pageStatement(sql)!.length).toBeLessThan(pageStatement(fullSql)!.length);
});

it('a view read from some columns throws when code reads another one (a computed field declared short)', async () => {
  // `privileged` reads directoryRoles: declared as reading nothing, the view has no roles to give it.
  const page = await onServer(
    app,
    'leanUsersPage',
    org.scope,
    tenant.id,
    { fields: ['id', 'privileged'], computed: { privileged: [] } },
    ['id', 'privileged', 'displayName'],
  );
  expect(page.items).toBeGreaterThan(0);
  expect(page.read.id).toEqual({ type: 'string' });
  expect(page.read.privileged).toEqual({
    error: expect.stringMatching(/"directoryRoles" was not read for this lean view/),
  });
  expect(page.read.displayName).toEqual({ error: expect.stringMatching(/was not read/) });
});
