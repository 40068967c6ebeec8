import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createUser } from '../factories/shared.js';
import {
  expectListReadsItsPage,
  expectStatementReadsFewRows,
  multiplyRows,
  statementOf,
} from '../helpers/list-plan.js';
import { um } from '../user-management/um-kit.js';
import { invite } from './guest-kit.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

/**
 * Issue #11 under row-level security: the guest invitation's address check and the managed-user list's department
 * filter compare stored folded columns (email_folded, user_principal_name_folded, department_folded) with a plain
 * `=`, so their indexes serve them as requests run them (application role, policies). Written with lower(...) = ?
 * each read every user of the tenant.
 */
const ROWS = 3000;

let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({ tenant: { domain: 'contoso.example' } }));
  await createUser(app, tenant, { department: 'Research & Development', displayName: 'Rare One' });
  await createUser(app, tenant, { userPrincipalName: 'Taken.Name@elsewhere.example' });
  await multiplyRows(app, 'users', (await createUser(app, tenant, { department: 'Sales' })).id, ROWS);
  await app.pool.query('vacuum analyze users');
}, 120_000);
afterAll(() => app.stop());

it('the folded columns are the email and department in lower case, kept by PostgreSQL', async () => {
  const { rows } = await app.pool.query<{ email: string | null; department: string | null }>(
    `select email_folded as email, department_folded as department from users where tenant_id = $1
      and department = 'Research & Development'`,
    [tenant.id],
  );
  expect(rows).toEqual([{ email: null, department: 'research & development' }]);
});

it('a guest invitation: the address check reads its indexes, not the tenant’s users (201, then 409)', async () => {
  for (const [email, status] of [
    ['new.guest@partner.example', 201],
    ['NEW.Guest@partner.example', 409],
    ['taken.name@elsewhere.example', 409],
  ] as const) {
    app.sql.reset();
    expect((await invite(app, org.keys.write, tenant.id, { email, displayName: 'Guest' })).status).toBe(
      status,
    );
    const checks = app.sql.log
      .map(statementOf)
      .filter((sql) => /^select/i.test(sql) && /email_folded = /.test(sql));
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) await expectStatementReadsFewRows(app, check, org.scope, 'users');
  }
});

it.each([
  ['a rare department', 'research %26 development', 1],
  ['a common department (another case)', 'SALES', 25],
])('the users list filtered by %s reads O(limit) rows', async (_name, department, expected) => {
  const path = `?department=${department}&limit=25`;
  const page = await um<unknown[]>(app, 'GET', path, { key: org.keys.admin, tenantId: tenant.id });
  expect(page.body.data).toHaveLength(expected);
  await expectListReadsItsPage(
    app,
    () => um(app, 'GET', path, { key: org.keys.admin, tenantId: tenant.id }),
    {
      limit: 25,
      session: org.scope,
    },
  );
});
