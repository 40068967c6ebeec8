import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { identity, scalar } from '../users/deleted-user-kit.js';
import {
  cloudContacts,
  contactInput,
  contactRows,
  createContact,
  deleteContact,
  listContacts,
  replaceContact,
  type ContactBody,
} from './contact-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

const events = () =>
  scalar(app, `select count(*) as n from domain_events where organization_id = $1 and kind like 'contact%'`, [
    org.organization.id,
  ]);

describe('POST /api/identity/contacts', () => {
  it('creates a contact upstream and here: 201, every field, GAL Visible by default, source Cloud', async () => {
    const t = await createTenant(app, org.scope);
    const res = await createContact(app, org.keys.write, t.id, {
      firstName: ' Grace ',
      lastName: 'Hopper',
      displayName: 'Grace Hopper (Navy)',
      email: 'Grace.Hopper@Navy.Example.mil',
      company: 'US Navy',
      jobTitle: 'Rear Admiral',
      businessPhone: '+1 555 0100',
      department: 'Computing',
      street: '1 Main St',
      city: 'Arlington',
      state: 'VA',
      postalCode: '22201',
      country: 'US',
      notes: 'Invented the compiler',
      emailAliases: ['Amazing.Grace@Example.org'],
    });
    expect(res.status).toBe(201);
    const now = app.clock.now().toISOString();
    expect(res.body.data).toEqual({
      id: expect.any(String),
      tenantId: t.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Grace Hopper (Navy)',
      email: 'grace.hopper@navy.example.mil',
      company: 'US Navy',
      jobTitle: 'Rear Admiral',
      businessPhone: '+1 555 0100',
      mobilePhone: null,
      department: 'Computing',
      showInAddressList: true,
      galVisibility: 'Visible',
      manager: null,
      street: '1 Main St',
      city: 'Arlington',
      state: 'VA',
      postalCode: '22201',
      country: 'US',
      notes: 'Invented the compiler',
      emailAliases: ['amazing.grace@example.org'],
      source: 'Cloud',
      createdAt: now,
      updatedAt: now,
    });
    expect(await cloudContacts(app, t.externalId)).toEqual([
      expect.objectContaining({
        mail: 'grace.hopper@navy.example.mil',
        companyName: 'US Navy',
        hiddenFromAddressLists: false,
        proxyAddresses: ['amazing.grace@example.org'],
      }),
    ]);
    // The event catalog has no contact kinds.
    expect(await events()).toBe(0);
  });

  it('refuses bad input with 400 naming each field, and writes nothing (here or upstream)', async () => {
    const t = await createTenant(app, org.scope);
    const cases: Array<[unknown, string[]]> = [
      [{ ...contactInput('not-an-address') }, ['email']],
      [{ ...contactInput('a@example.com'), firstName: '  ' }, ['firstName']],
      [{ ...contactInput('a@example.com'), displayName: 'x'.repeat(257) }, ['displayName']],
      [{ ...contactInput('a@example.com'), emailAliases: ['nope'] }, ['emailAliases[0]']],
      [{ ...contactInput('a@example.com'), emailAliases: ['A@example.com'] }, ['emailAliases[0]']],
      [{ ...contactInput('a@example.com'), nickname: 'Ada' }, ['nickname']],
      [{ firstName: 'Ada', lastName: 'L', displayName: 'Ada L' }, ['email']],
      [{ ...contactInput('a@example.com'), showInAddressList: 'yes' }, ['showInAddressList']],
    ];
    for (const [body, fields] of cases) {
      const res = await createContact(app, org.keys.write, t.id, body);
      expect([res.status, res.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
      const named = (res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field);
      expect(named).toEqual(fields);
    }
    expect(await contactRows(app, t.id)).toBe(0);
    expect(await cloudContacts(app, t.externalId)).toEqual([]);
  });

  it('answers 409 for an address already a contact of the tenant (any case); other tenants may reuse it', async () => {
    const t = await createTenant(app, org.scope);
    const first = await createContact(app, org.keys.write, t.id, contactInput('dup@example.com'));
    expect(first.status).toBe(201);
    const again = await createContact(app, org.keys.write, t.id, contactInput(' DUP@Example.com'));
    expect([again.status, again.body.error?.code]).toEqual([409, 'CONFLICT']);
    expect(again.body.error?.details).toMatchObject({
      fields: [{ field: 'email', problem: expect.any(String) }],
      existingContactId: first.body.data.id,
    });
    expect(await contactRows(app, t.id)).toBe(1);
    expect(await cloudContacts(app, t.externalId)).toHaveLength(1);
    const elsewhere = await createContact(
      app,
      org.keys.write,
      (await createTenant(app, org.scope)).id,
      contactInput('dup@example.com'),
    );
    expect(elsewhere.status).toBe(201);
  });

  it('answers 409 for an address that is another contact’s alias, or an alias that is another contact’s address; nothing written', async () => {
    const t = await createTenant(app, org.scope);
    const first = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('a1@partner.example', { emailAliases: ['sales@partner.example'] }),
    );
    expect(first.status).toBe(201);
    const aliasAsEmail = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('Sales@Partner.example'),
    );
    expect([aliasAsEmail.status, aliasAsEmail.body.error?.details]).toEqual([
      409,
      expect.objectContaining({ fields: [expect.objectContaining({ field: 'email' })] }),
    ]);
    const emailAsAlias = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('a2@partner.example', { emailAliases: ['ok@partner.example', 'A1@partner.example'] }),
    );
    expect(emailAsAlias.status).toBe(409);
    expect(emailAsAlias.body.error?.details).toMatchObject({
      fields: [{ field: 'emailAliases[1]', problem: expect.any(String) }],
      existingContactIds: [first.body.data.id],
    });
    expect(await contactRows(app, t.id)).toBe(1);
    expect(await cloudContacts(app, t.externalId)).toHaveLength(1);
    // A contact keeps its own aliases on PUT; another may take the alias once it is let go.
    const second = await createContact(app, org.keys.write, t.id, contactInput('a2@partner.example'));
    const taken = await replaceContact(app, org.keys.write, t.id, second.body.data.id, {
      ...contactInput('a2@partner.example'),
      emailAliases: ['sales@partner.example'],
    });
    expect(taken.status).toBe(409);
    const kept = await replaceContact(app, org.keys.write, t.id, first.body.data.id, {
      ...contactInput('a1@partner.example'),
      emailAliases: ['sales@partner.example'],
    });
    expect(kept.status).toBe(200);
  });

  it('needs write:users (Read key 403), X-Tenant-Id (400) and hides other organizations (404)', async () => {
    const body = contactInput('perm@example.com');
    const read = await createContact(app, org.keys.read, tenant.id, body);
    expect([read.status, read.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await identity<ContactBody>(app, 'POST', '/contacts', { key: org.keys.write, body });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await createContact(app, other.keys.admin, tenant.id, body);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    expect(await contactRows(app, tenant.id)).toBe(0);
  });
});

describe('GET /api/identity/contacts', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant(app, org.scope);
    for (const [first, last, email] of [
      ['Zoe', 'Zed', 'zoe@alpha.example'],
      ['adam', 'Ant', 'adam@beta.example'],
      ['Mia', 'Moe', 'mia@alpha.example'],
      ['Ben', 'Bee', 'ben_x@gamma.example'],
    ]) {
      const res = await createContact(app, org.keys.write, t.id, {
        firstName: first,
        lastName: last,
        displayName: `${first} ${last}`,
        email,
      });
      expect(res.status).toBe(201);
    }
  });

  it('lists by display name (case-insensitive), paged with the true total', async () => {
    const all = await listContacts(app, org.keys.read, t.id);
    expect(all.body.data.map((c) => c.displayName)).toEqual(['adam Ant', 'Ben Bee', 'Mia Moe', 'Zoe Zed']);
    expect(all.body.meta).toEqual({ page: 1, limit: 25, total: 4 });
    const second = await listContacts(app, org.keys.read, t.id, '?page=2&limit=3');
    expect(second.body.data.map((c) => c.displayName)).toEqual(['Zoe Zed']);
    const past = await listContacts(app, org.keys.read, t.id, '?page=5&limit=3');
    expect(past.body).toMatchObject({ data: [], meta: { total: 4 } });
  });

  it('?search= matches part of a name or the address, case-insensitively; % and _ are literal', async () => {
    const alpha = await listContacts(app, org.keys.read, t.id, '?search=ALPHA');
    expect(alpha.body.data.map((c) => c.email)).toEqual(['mia@alpha.example', 'zoe@alpha.example']);
    expect(alpha.body.meta?.total).toBe(2);
    const byLast = await listContacts(app, org.keys.read, t.id, '?search=ant');
    expect(byLast.body.data.map((c) => c.email)).toEqual(['adam@beta.example']);
    const underscore = await listContacts(app, org.keys.read, t.id, '?search=_');
    expect(underscore.body.data.map((c) => c.email)).toEqual(['ben_x@gamma.example']);
    const percent = await listContacts(app, org.keys.read, t.id, '?search=%25');
    expect(percent.body.data).toEqual([]);
    const tooLong = await listContacts(app, org.keys.read, t.id, `?search=${'a'.repeat(257)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'search' })]);
  });

  it('400 without X-Tenant-Id, 404 for another organization, bad paging 400', async () => {
    const missing = await identity<ContactBody[]>(app, 'GET', '/contacts', { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await listContacts(app, other.keys.admin, t.id);
    expect([foreign.status, foreign.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    const badLimit = await listContacts(app, org.keys.read, t.id, '?limit=101');
    expect(badLimit.status).toBe(400);
  });

  it('costs the same SQL statements at limit=1 and limit=25', async () => {
    const read = async (limit: number) => {
      const res = await listContacts(app, org.keys.read, t.id, `?limit=${limit}`);
      expect(res.body.data).toHaveLength(Math.min(limit, 4));
    };
    await read(1);
    const small = await app.sql.during(() => read(1));
    const large = await app.sql.during(() => read(25));
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  });
});

describe('PUT /api/identity/contacts/:id', () => {
  it('replaces every field: optional fields left out are cleared, showInAddressList back to true', async () => {
    const t = await createTenant(app, org.scope);
    const created = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('old@example.com', {
        company: 'Old Co',
        showInAddressList: false,
        emailAliases: ['alias@example.com'],
      }),
    );
    expect(created.body.data.galVisibility).toBe('Hidden');
    app.clock.advance(60_000);
    const res = await replaceContact(app, org.keys.write, t.id, created.body.data.id, {
      firstName: 'Ada',
      lastName: 'King',
      displayName: 'Ada King',
      email: 'New@Example.com',
      jobTitle: 'Countess',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: created.body.data.id,
      lastName: 'King',
      email: 'new@example.com',
      jobTitle: 'Countess',
      company: null,
      showInAddressList: true,
      galVisibility: 'Visible',
      emailAliases: [],
      createdAt: created.body.data.createdAt,
      updatedAt: app.clock.now().toISOString(),
    });
    expect(await cloudContacts(app, t.externalId)).toEqual([
      expect.objectContaining({
        mail: 'new@example.com',
        companyName: null,
        jobTitle: 'Countess',
        hiddenFromAddressLists: false,
      }),
    ]);
    // The same address again (any case) is not a clash with itself.
    const same = await replaceContact(
      app,
      org.keys.write,
      t.id,
      created.body.data.id,
      contactInput('NEW@example.com'),
    );
    expect(same.status).toBe(200);
  });

  it('400 for a partial body (naming the field) and nothing changed; 409 for another contact’s address; 404', async () => {
    const t = await createTenant(app, org.scope);
    const a = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('a@example.com', { city: 'Paris' }),
    );
    await createContact(app, org.keys.write, t.id, contactInput('b@example.com'));
    const partial = await replaceContact(app, org.keys.write, t.id, a.body.data.id, { city: 'Rome' });
    expect(partial.status).toBe(400);
    const named = (partial.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field).sort();
    expect(named).toEqual(['displayName', 'email', 'firstName', 'lastName']);
    const clash = await replaceContact(
      app,
      org.keys.write,
      t.id,
      a.body.data.id,
      contactInput('B@example.com'),
    );
    expect([clash.status, clash.body.error?.code]).toEqual([409, 'CONFLICT']);
    const list = await listContacts(app, org.keys.read, t.id, '?search=a@');
    expect(list.body.data).toEqual([expect.objectContaining({ email: 'a@example.com', city: 'Paris' })]);
    expect((await cloudContacts(app, t.externalId))[0]).toMatchObject({
      mail: 'a@example.com',
      city: 'Paris',
    });
    const unknown = await replaceContact(
      app,
      org.keys.write,
      t.id,
      '00000000-0000-4000-8000-000000000000',
      contactInput('c@example.com'),
    );
    expect(unknown.status).toBe(404);
    const foreign = await replaceContact(
      app,
      other.keys.admin,
      t.id,
      a.body.data.id,
      contactInput('c@example.com'),
    );
    expect(foreign.status).toBe(404);
    const read = await replaceContact(
      app,
      org.keys.read,
      t.id,
      a.body.data.id,
      contactInput('c@example.com'),
    );
    expect(read.status).toBe(403);
  });
});

describe('DELETE /api/identity/contacts/:id', () => {
  it('needs an Admin key (Write 403); deletes here and upstream for good; then 404', async () => {
    const t = await createTenant(app, org.scope);
    const created = await createContact(app, org.keys.write, t.id, contactInput('gone@example.com'));
    const id = created.body.data.id;
    const write = await deleteContact(app, org.keys.write, t.id, id);
    expect([write.status, write.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    const foreign = await deleteContact(app, other.keys.admin, t.id, id);
    expect(foreign.status).toBe(404);
    const missing = await identity(app, 'DELETE', `/contacts/${id}`, { key: org.keys.admin });
    expect(missing.status).toBe(400);
    expect(await contactRows(app, t.id)).toBe(1);

    const res = await deleteContact(app, org.keys.admin, t.id, id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, email: 'gone@example.com' });
    expect(await contactRows(app, t.id)).toBe(0);
    expect(await cloudContacts(app, t.externalId)).toEqual([]);
    const again = await deleteContact(app, org.keys.admin, t.id, id);
    expect(again.status).toBe(404);
    // The address is free again.
    expect((await createContact(app, org.keys.write, t.id, contactInput('gone@example.com'))).status).toBe(
      201,
    );
  });
});

describe('GraphQL', () => {
  it('contacts, createContact, updateContact, deleteContact with UPPER_SNAKE enums', async () => {
    const t = await createTenant(app, org.scope);
    const created = await app.graphql<{
      createContact: { id: string; source: string; galVisibility: string };
    }>(
      org.keys.write,
      `mutation($t: UUID!) {
        createContact(tenantId: $t, input: { firstName: "Alan", lastName: "Turing", displayName: "Alan Turing",
          email: "alan@example.org", showInAddressList: false }) { id source galVisibility }
      }`,
      { t: t.id },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data?.createContact).toMatchObject({ source: 'CLOUD', galVisibility: 'HIDDEN' });
    const id = created.body.data!.createContact.id;
    const updated = await app.graphql<{ updateContact: { email: string; galVisibility: string } }>(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) {
        updateContact(tenantId: $t, id: $id, input: { firstName: "Alan", lastName: "Turing",
          displayName: "A. M. Turing", email: "amt@example.org" }) { email galVisibility }
      }`,
      { t: t.id, id },
    );
    expect(updated.body.data?.updateContact).toEqual({ email: 'amt@example.org', galVisibility: 'VISIBLE' });
    const list = await app.graphql<{
      contacts: { items: Array<{ displayName: string }>; pageInfo: { total: number } };
    }>(
      org.keys.read,
      `query($t: UUID!) { contacts(tenantId: $t, search: "turing") { items { displayName } pageInfo { total } } }`,
      { t: t.id },
    );
    expect(list.body.data?.contacts).toEqual({
      items: [{ displayName: 'A. M. Turing' }],
      pageInfo: { total: 1 },
    });
    const byWrite = await app.graphql(
      org.keys.write,
      `mutation($t: UUID!, $id: UUID!) { deleteContact(tenantId: $t, id: $id) { id } }`,
      { t: t.id, id },
    );
    expect(byWrite.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const byAdmin = await app.graphql<{ deleteContact: { id: string } }>(
      org.keys.admin,
      `mutation($t: UUID!, $id: UUID!) { deleteContact(tenantId: $t, id: $id) { id } }`,
      { t: t.id, id },
    );
    expect(byAdmin.body.data?.deleteContact).toEqual({ id });
    const bad = await app.graphql(
      org.keys.write,
      `mutation($t: UUID!) {
        createContact(tenantId: $t, input: { firstName: "A", lastName: "B", displayName: "A B", email: "x" }) { id }
      }`,
      { t: t.id },
    );
    expect(bad.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'email', problem: expect.any(String) }] },
    });
  });
});
