import type { CloudContactInput, CloudUserRecord } from '../../src/cloud/provider.js';
import { generateSyncedContacts } from '../../src/cloud/simulated/simulated-contacts.generator.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import {
  contactInput,
  createContact,
  deleteContact,
  listContacts,
  replaceContact,
  type ContactBody,
} from './contact-kit.js';

/** SPEC 8.3 "Synced contact sync cycle: 30 minutes" (docs/identity.md "Contact sync"). */

let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

// A database of the file's own: the scheduled pass covers every organization's tenants. The sync itself is the
// server's (onServer).
beforeAll(async () => ({ app, org, other } = await realmSuite({ other: true })));
afterAll(() => app.stop());

const cloud = () => app.deps.clouds as SimulatedCloud;
const sync = (tenant: Tenant) => onServer(app, 'syncTenantContacts', org.scope, tenant.id);

function onPremises(email: string, extra: Partial<CloudContactInput> = {}): CloudContactInput {
  return {
    displayName: 'Grace Hopper',
    firstName: 'Grace',
    lastName: 'Hopper',
    mail: email,
    companyName: 'Navy',
    jobTitle: null,
    businessPhone: null,
    mobilePhone: null,
    department: null,
    hiddenFromAddressLists: false,
    manager: null,
    streetAddress: null,
    city: 'Arlington',
    state: null,
    postalCode: null,
    country: null,
    notes: null,
    proxyAddresses: ['G.Hopper@Navy.example'],
    ...extra,
  };
}

const byEmail = async (tenant: Tenant) =>
  Object.fromEntries(
    ((await listContacts(app, org.keys.read, tenant.id, '?limit=100')).body.data as ContactBody[]).map(
      (c) => [c.email, c],
    ),
  );

it('runs every 30 minutes on one process of the fleet', async () => {
  // CONTACT_SYNC_CRON (src/contacts/contact-sync.ts), as the job runner schedules it: one identifier for the fleet.
  const scheduled = (await onServer(app, 'cronItems')).filter((item) => item.task === 'contacts.sync');
  expect(scheduled).toEqual([
    expect.objectContaining({ match: '*/30 * * * *', identifier: 'contacts.sync' }),
  ]);
});

it('brings on-premises contacts in as Synced (read-only here), copies upstream changes and removals', async () => {
  const tenant = await createTenant(app, org.scope);
  const ours = await createContact(app, org.keys.write, tenant.id, contactInput('ours@example.com'));
  expect(ours.status).toBe(201);
  const synced = await cloud().exchange.addSyncedContact(tenant.externalId, onPremises('Grace@Navy.example'));

  expect(await sync(tenant)).toEqual({ created: 1, updated: 0, deleted: 0, skipped: 0 });
  const first = await byEmail(tenant);
  expect(first['grace@navy.example']).toMatchObject({
    source: 'Synced',
    displayName: 'Grace Hopper',
    company: 'Navy',
    city: 'Arlington',
    emailAliases: ['g.hopper@navy.example'],
    galVisibility: 'Visible',
  });
  // Our own contact is the cloud's too: nothing to change.
  expect(first['ours@example.com']).toMatchObject({ source: 'Cloud' });
  const id = first['grace@navy.example'].id;
  expect(
    (await replaceContact(app, org.keys.write, tenant.id, id, contactInput('x@example.com'))).status,
  ).toBe(409);
  expect((await deleteContact(app, org.keys.admin, tenant.id, id)).status).toBe(409);

  // A second pass with nothing new upstream changes nothing.
  expect(await sync(tenant)).toEqual({ created: 0, updated: 0, deleted: 0, skipped: 0 });

  await cloud().exchange.changeSyncedContact(
    tenant.externalId,
    synced.externalId,
    onPremises('grace@navy.example', { jobTitle: 'Rear Admiral', hiddenFromAddressLists: true }),
  );
  expect(await sync(tenant)).toMatchObject({ updated: 1 });
  expect((await byEmail(tenant))['grace@navy.example']).toMatchObject({
    id,
    jobTitle: 'Rear Admiral',
    galVisibility: 'Hidden',
  });

  await cloud().deleteContact(tenant.externalId, synced.externalId);
  expect(await sync(tenant)).toMatchObject({ deleted: 1 });
  expect(Object.keys(await byEmail(tenant))).toEqual(['ours@example.com']);
});

it('skips an upstream contact whose address another contact here holds, and syncs the rest', async () => {
  const tenant = await createTenant(app, org.scope);
  await createContact(app, org.keys.write, tenant.id, contactInput('taken@example.com'));
  // The same address arrives from on premises as another object (a cloud would refuse it; a sync must not fail).
  await cloud().exchange.addSyncedContact(tenant.externalId, onPremises('taken@example.com'));
  await cloud().exchange.addSyncedContact(tenant.externalId, onPremises('free@example.com'));
  expect(await sync(tenant)).toEqual({ created: 1, updated: 0, deleted: 0, skipped: 1 });
  expect(Object.keys(await byEmail(tenant)).sort()).toEqual(['free@example.com', 'taken@example.com']);
});

it('the scheduled pass covers every organization’s tenants, each in its own scope', async () => {
  const mine = await createTenant(app, org.scope);
  const theirs = await createTenant(app, other.scope);
  await cloud().exchange.addSyncedContact(mine.externalId, onPremises('mine@example.com'));
  await cloud().exchange.addSyncedContact(theirs.externalId, onPremises('theirs@example.com'));
  const total = await onServer(app, 'syncEveryTenantsContacts');
  expect(total.created).toBeGreaterThanOrEqual(2);
  expect(Object.keys(await byEmail(mine))).toEqual(['mine@example.com']);
  const { rows } = await app.pool.query<{ organization_id: string }>(
    'select organization_id from contacts where tenant_id = $1',
    [theirs.id],
  );
  expect(rows).toEqual([{ organization_id: other.scope.organizationId }]);
  // Isolation over the API: the other organization's tenant is 404 for this key.
  expect((await listContacts(app, org.keys.read, theirs.id)).status).toBe(404);
});

it('a tenant sync (onboarding, "sync now") brings the contacts in too', async () => {
  const tenant = await createTenant(app, org.scope);
  await cloud().exchange.addSyncedContact(tenant.externalId, onPremises('onboarded@example.com'));
  await onServer(app, 'syncTenant', org.scope, tenant.id);
  expect((await byEmail(tenant))['onboarded@example.com']).toMatchObject({ source: 'Synced' });
});

it('generated hybrid tenants carry a few on-premises contacts; cloud-only ones none', () => {
  const hybrid = [{ onPremisesSynced: true } as CloudUserRecord];
  const contacts = generateSyncedContacts(hybrid, 42, new Date('2026-11-01T00:00:00Z'));
  expect(contacts.length).toBeGreaterThanOrEqual(2);
  expect(contacts.length).toBeLessThanOrEqual(5);
  expect(contacts.every((contact) => contact.onPremisesSynced)).toBe(true);
  expect(new Set(contacts.map((contact) => contact.mail)).size).toBe(contacts.length);
  // Deterministic for a seed.
  expect(generateSyncedContacts(hybrid, 42, new Date('2026-11-01T00:00:00Z'))).toEqual(contacts);
  expect(generateSyncedContacts([{ onPremisesSynced: false } as CloudUserRecord], 42, new Date())).toEqual(
    [],
  );
});
