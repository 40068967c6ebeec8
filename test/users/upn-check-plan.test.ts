import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createUser } from '../factories/shared.js';
import { expectStatementReadsFewRows, multiplyRows, statementOf } from '../helpers/list-plan.js';
import { um } from '../user-management/um-kit.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

/**
 * Issue #11 under row-level security: the UPN uniqueness checks compare the stored folded UPN with a plain `=`,
 * so the unique index users_active_upn_unique serves them as requests run them (application role, policies).
 * Written as `lower(user_principal_name) = ?` they read every user of the organization.
 */
const ROWS = 3000;

let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let userId: string;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({ tenant: { domain: 'contoso.example' } }));
  const user = await createUser(app, tenant, { userPrincipalName: 'Mixed.Case@contoso.example' });
  userId = user.id;
  await multiplyRows(app, 'users', (await createUser(app, tenant)).id, ROWS);
  await app.pool.query('vacuum analyze users');
}, 120_000);
afterAll(() => app.stop());

/** The statements of `send` that read the folded UPN, each planned as the request ran it. */
async function expectUpnChecksIndexServed(send: () => Promise<{ status: number }>, status: number) {
  app.sql.reset();
  expect((await send()).status).toBe(status);
  const checks = app.sql.log
    .map(statementOf)
    .filter((sql) => /^select/i.test(sql) && /user_principal_name_folded"? (=|in) /.test(sql));
  expect(checks.length).toBeGreaterThan(0);
  for (const statement of checks) await expectStatementReadsFewRows(app, statement, org.scope, 'users');
}

it('the folded column is the UPN in lower case, kept by PostgreSQL', async () => {
  const { rows } = await app.pool.query<{ folded: string }>(
    'select user_principal_name_folded as folded from users where id = $1',
    [userId],
  );
  expect(rows[0].folded).toBe('mixed.case@contoso.example');
});

it('creating a user: the UPN check reads the index, not the organization’s users', async () => {
  await expectUpnChecksIndexServed(
    () =>
      app.request('POST', `/v1/tenants/${tenant.id}/users`, {
        key: org.keys.admin,
        body: { userPrincipalName: 'fresh@contoso.example', firstName: 'Fresh', lastName: 'User' },
      }),
    201,
  );
});

it('renaming to a taken UPN (another case): refused with 409 through the index', async () => {
  const other = await createUser(app, tenant);
  await expectUpnChecksIndexServed(
    () =>
      app.request('PATCH', `/v1/tenants/${tenant.id}/users/${other.id}`, {
        key: org.keys.admin,
        body: { userPrincipalName: 'MIXED.case@contoso.example' },
      }),
    409,
  );
});

it('a bulk creation: the check of the file’s UPNs reads the index', async () => {
  const header = 'UserPrincipalName,FirstName,LastName,DisplayName,Password,Department,UsageLocation';
  await expectUpnChecksIndexServed(
    () =>
      um(app, 'POST', '/bulk', {
        key: org.keys.admin,
        tenantId: tenant.id,
        csv: `${header}\nbulk.one@contoso.example,Bulk,One,,,,\nmixed.case@contoso.example,Taken,Again,,,,\n`,
      }),
    400,
  );
});
