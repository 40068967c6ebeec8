import {
  createOrganizationWithKeys,
  createSku,
  createTenant,
  createUser,
  giveLicense,
} from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { softDelete } from './deleted-user-kit.js';

// A database of the file's own: the migration's backfill updates every user of the table.
let app: RealmApp;
beforeAll(async () => {
  app = await realmApp();
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

  // The statements the landed migration's `up` queues, made by the server's ORM (its driver and config).
  const queries = await onServer(app, 'migrationQueries', 'Migration20261125090000_deleted_users');
  const backfill = queries.find((query) => query.startsWith('update'));
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
