import { createOrganizationWithKeys, createTenant, createUser } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { createGuest } from './guest-kit.js';

// A database of the file's own: the migration's backfills update every user of the table.
let app: RealmApp;
beforeAll(async () => {
  app = await realmApp();
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

  // The statements the landed migration's `up` queues, made by the server's ORM (its driver and config).
  const queries = await onServer(app, 'migrationQueries', 'Migration20261126090000_guests');
  const backfills = queries.filter((query) => query.startsWith('update'));
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
