import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { Migration20261126090000_guests } from '../../src/db/migrations/Migration20261126090000_guests.js';
import { createOrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import { createUser } from '../factories/users.js';
import { TestApp } from '../helpers/test-app.js';
import { createGuest } from './guest-kit.js';

let app: TestApp;
beforeAll(async () => {
  app = await TestApp.start();
});
afterAll(() => app.stop());

it('the migration gives guests synced before it an address (from the UPN), a source and N/A', async () => {
  const org = await createOrganizationWithKeys(app);
  const tenant = await createTenant(app, org.scope);
  const guest = await createGuest(app, tenant, { email: 'ann_marie@partner.example.org' });
  const member = await createUser(app, tenant);
  // As if synced before the columns existed.
  await app.pool.query(
    `update users set email = null, guest_source = null, invitation_status = null where tenant_id = $1`,
    [tenant.id],
  );

  const migration = new Migration20261126090000_guests(
    app.orm.em.getDriver() as unknown as AbstractSqlDriver,
    app.orm.config,
  );
  await migration.up();
  const backfills = migration.getQueries().filter((query) => String(query).startsWith('update'));
  expect(backfills).toHaveLength(2);
  for (const query of backfills) await app.pool.query(String(query));

  const { rows } = await app.pool.query<{
    id: string;
    email: string | null;
    guest_source: string | null;
    invitation_status: string | null;
  }>('select id, email, guest_source, invitation_status from users where tenant_id = $1', [tenant.id]);
  expect(Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]))).toEqual({
    [guest.id]: {
      email: 'ann_marie@partner.example.org',
      guest_source: 'B2B collaboration',
      invitation_status: 'N/A',
    },
    [member.id]: { email: null, guest_source: null, invitation_status: null },
  });
});
