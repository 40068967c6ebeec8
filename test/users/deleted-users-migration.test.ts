import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { Migration20261125090000_deleted_users } from '../../src/db/migrations/Migration20261125090000_deleted_users.js';
import { createSku } from '../factories/licenses.js';
import { createOrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import { createUser, giveLicense } from '../factories/users.js';
import { TestApp } from '../helpers/test-app.js';
import { softDelete } from './deleted-user-kit.js';

let app: TestApp;
beforeAll(async () => {
  app = await TestApp.start();
});
afterAll(() => app.stop());

it('the migration gives users deleted before it hadLicenses from their user.deleted event', async () => {
  const org = await createOrganizationWithKeys(app);
  const tenant = await createTenant(app, org.scope);
  const licensed = await createUser(app, tenant);
  const unlicensed = await createUser(app, tenant);
  const active = await createUser(app, tenant);
  await giveLicense(app, tenant, licensed, await createSku(app, tenant, { total: 2 }));
  await giveLicense(app, tenant, active, await createSku(app, tenant, { total: 2 }));
  await softDelete(app, org.keys.admin, tenant, licensed);
  await softDelete(app, org.keys.admin, tenant, unlicensed);
  // As if deleted before the column existed.
  await app.pool.query('update users set had_licenses = false where tenant_id = $1', [tenant.id]);

  const migration = new Migration20261125090000_deleted_users(
    app.orm.em.getDriver() as unknown as AbstractSqlDriver,
    app.orm.config,
  );
  await migration.up();
  const backfill = migration.getQueries().find((query) => String(query).startsWith('update'));
  expect(backfill).toBeDefined();
  await app.pool.query(String(backfill));

  const { rows } = await app.pool.query<{ id: string; had_licenses: boolean }>(
    'select id, had_licenses from users where tenant_id = $1',
    [tenant.id],
  );
  expect(Object.fromEntries(rows.map((row) => [row.id, row.had_licenses]))).toEqual({
    [licensed.id]: true,
    [unlicensed.id]: false,
    [active.id]: false,
  });
});
