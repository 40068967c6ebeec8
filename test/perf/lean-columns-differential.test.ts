import { getOperationAST, parse, type FieldNode } from 'graphql';
import { findLeanPage } from '../../src/core/lean-read.js';
import { PageArgs } from '../../src/core/pagination.js';
import { setLeanColumnPruning } from '../../src/core/lean-selection.js';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { User } from '../../src/users/user.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import { createLicenseUser, createSku } from '../factories/licenses.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createUser, giveLicense } from '../factories/users.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Lean pages read only the columns of the fields asked (src/core/lean-selection.ts). Differential: every GET
 * route whose document runs a pruned list, and GraphQL selections of every kind, answer exactly as with every
 * column read (the pruning switched off), while the statement sent selects fewer columns.
 */
let app: TestApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

/** The root fields whose lists are pruned today (their resolvers pass `selectedItemFields(info)`). */
const PRUNED_LISTS = ['users'];

beforeAll(async () => {
  ({ app, org, tenant } = await startSuite({ tenant: true }));
  const sku = await createSku(app, tenant, { total: 10 });
  const manager = await createUser(app, tenant, { jobTitle: 'Head', department: 'Sales' });
  await createUser(app, tenant, {
    directoryRoles: ['Global Administrator'],
    managerId: manager.id,
    usageLocation: 'FR',
    accountStatus: AccountStatus.DISABLED,
  });
  for (let i = 0; i < 3; i++) await giveLicense(app, tenant, await createLicenseUser(app, tenant), sku);
}, 60_000);
afterAll(() => {
  setLeanColumnPruning(true);
  return app.stop();
});

/** The answer with the columns pruned and with every column, and the statements of the pruned one. */
async function bothWays<T>(read: () => Promise<T>): Promise<{ pruned: T; full: T; sql: string[] }> {
  await read(); // warm-up: the key is cached
  app.sql.reset();
  const pruned = await read();
  const sql = [...app.sql.log];
  setLeanColumnPruning(false);
  try {
    return { pruned, full: await read(), sql };
  } finally {
    setLeanColumnPruning(true);
  }
}

const rootFieldOf = (document: string) =>
  (getOperationAST(parse(document))?.selectionSet.selections[0] as FieldNode | undefined)?.name.value;

it('every GET route of a pruned list answers as with every column, reading fewer', async () => {
  const routes = [
    ...VERSIONED_ROUTES.map((route) => ({ ...route, mount: '/v1' })),
    ...FEATURE_ROUTES.map((route) => ({ ...route, mount: '/api' })),
  ].filter((route) => route.method === 'GET' && PRUNED_LISTS.includes(rootFieldOf(route.operation) ?? ''));
  expect(routes.length).toBeGreaterThan(0);
  for (const route of routes) {
    const path = `${route.mount}${route.path.replace(/:[A-Za-z]+/, tenant.id)}?limit=25`;
    const { pruned, full, sql } = await bothWays(() => app.request('GET', path, { key: org.keys.admin }));
    expect({ path, status: pruned.status }).toEqual({ path, status: 200 });
    expect(pruned.body).toEqual(full.body);
    const page = sql.find((statement) => statement.includes('lean_page'));
    // Columns of the table the route's document does not show (wire shape: USER_FIELDS).
    expect(page).toBeDefined();
    expect(page).not.toContain('"invited_by"');
    expect(page).toContain('"display_name"');
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

it('a view read from some columns throws when code reads another one (a computed field declared short)', async () => {
  const ctx = { em: app.orm.em.fork(), scope: org.scope };
  const page = await findLeanPage(
    ctx,
    User,
    { tenantId: tenant.id, deletedAt: null },
    Object.assign(new PageArgs(), { page: 1, limit: 5 }),
    { createdAt: 'desc', id: 'desc' },
    [],
    undefined,
    // `privileged` reads directoryRoles: declared as reading nothing, the view has no roles to give it.
    { fields: new Set(['id', 'privileged']), computed: { privileged: [] } },
  );
  expect(page.items.length).toBeGreaterThan(0);
  expect(page.items[0].id).toEqual(expect.any(String));
  expect(() => page.items[0].privileged).toThrow(/"directoryRoles" was not read for this lean view/);
  expect(() => page.items[0].displayName).toThrow(/was not read/);
});
