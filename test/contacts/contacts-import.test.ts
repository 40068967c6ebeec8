import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { identity } from '../users/deleted-user-kit.js';
import {
  cloudContacts,
  contactInput,
  contactRows,
  createContact,
  importCsv,
  listContacts,
  type ImportReportBody,
} from './contact-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const HEADER = 'DisplayName,EmailAddress,FirstName,LastName,Company,JobTitle,BusinessPhone';

/** The details of the 400 for invalid rows: the document's InvalidRequestDetails declares `fields` but not `rows`. */
interface RowProblemsBody {
  fields: Array<{ field: string; problem: string }>;
  rows?: ImportReportBody['rows'];
}

async function nothingWritten(t: Tenant) {
  expect(await contactRows(app, t.id)).toBe(0);
  expect(await cloudContacts(app, t.externalId)).toEqual([]);
}

describe('POST /api/identity/contacts/bulk (text/csv)', () => {
  it('imports a good file: BOM, CRLF, quoted commas and quotes, any header case, blank lines skipped', async () => {
    const t = await createTenant(app, org.scope);
    const csv =
      '\uFEFFdisplayname,EMAILADDRESS,FirstName,LastName,Company,JobTitle,BusinessPhone\r\n' +
      '"Doe, Jane",Jane.Doe@Example.com,Jane,Doe,"Acme, Inc.","Head of ""Stuff""",+1 555 0100\r\n' +
      '\r\n' +
      'John Roe,john@example.com,John,Roe,,,\r\n';
    const res = await importCsv(app, org.keys.write, t.id, csv);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      created: 2,
      skipped: 0,
      failed: 0,
      rows: [
        {
          line: 2,
          email: 'jane.doe@example.com',
          status: 'created',
          contactId: expect.any(String),
          errors: [],
        },
        { line: 4, email: 'john@example.com', status: 'created', contactId: expect.any(String), errors: [] },
      ],
    });
    const list = await listContacts(app, org.keys.read, t.id);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: res.body.data.rows[0].contactId,
        displayName: 'Doe, Jane',
        email: 'jane.doe@example.com',
        company: 'Acme, Inc.',
        jobTitle: 'Head of "Stuff"',
        businessPhone: '+1 555 0100',
        source: 'Cloud',
        galVisibility: 'Visible',
      }),
      expect.objectContaining({
        displayName: 'John Roe',
        company: null,
        jobTitle: null,
        businessPhone: null,
      }),
    ]);
    expect(await cloudContacts(app, t.externalId)).toHaveLength(2);
  });

  it('only the required columns are needed; a line inside quotes keeps later line numbers true', async () => {
    const t = await createTenant(app, org.scope);
    const csv =
      'EmailAddress,LastName,FirstName,DisplayName\n' +
      'a@example.com,A,Ann,"Ann\r\nA"\n' +
      'b@example.com,B,Bob,Bob B\n';
    const res = await importCsv(app, org.keys.write, t.id, csv);
    expect(res.status).toBe(200);
    expect(res.body.data.rows.map((row) => row.line)).toEqual([2, 4]);
  });

  it('skips addresses already contacts of the tenant, and repeats within the file, as duplicates', async () => {
    const t = await createTenant(app, org.scope);
    const existing = await createContact(
      app,
      org.keys.write,
      t.id,
      contactInput('old@example.com', { emailAliases: ['alias@example.com'] }),
    );
    const csv = [
      HEADER,
      'Old One,OLD@example.com,Old,One,,,',
      'New One,new@example.com,New,One,,,',
      'New Again,New@Example.com,New,Again,,,',
      'Alias One,Alias@example.com,Alias,One,,,', // another contact's alias: the same recipient
    ].join('\n');
    const res = await importCsv(app, org.keys.write, t.id, csv);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, skipped: 3, failed: 0 });
    expect(res.body.data.rows.map((row) => [row.line, row.status, row.contactId])).toEqual([
      [2, 'duplicate', existing.body.data.id],
      [3, 'created', expect.any(String)],
      [4, 'duplicate', null],
      [5, 'duplicate', existing.body.data.id],
    ]);
    expect(await contactRows(app, t.id)).toBe(2);
    // Importing the same file again creates nothing.
    const again = await importCsv(app, org.keys.write, t.id, csv);
    expect(again.body.data).toMatchObject({ created: 0, skipped: 4 });
    expect(await cloudContacts(app, t.externalId)).toHaveLength(2);
  });

  it('refuses cells a spreadsheet would run as a formula (=, +, -, @, tab, CR): 400 naming line and column (issue #9)', async () => {
    const t = await createTenant(app, org.scope);
    const csv = [
      HEADER,
      'Safe Row,safe@example.com,Safe,Row,,,+44 20 7946 0958',
      '"=HYPERLINK(""http://evil"")",eq@example.com,Eq,Row,,,',
      'Plus Row,plus@example.com,Plus,Row,+cmd|calc,,',
      'Minus Row,minus@example.com,-2+3,Row,,,',
      'At Row,at@example.com,At,Row,,@SUM(A1),',
      'Tab Row,tab@example.com,Tab,"\tRow",,,',
      'Cr Row,cr@example.com,Cr,"\rRow",,,',
      'Phone Row,phone@example.com,Phone,Row,,,+1 =2',
    ].join('\r\n');
    const res = await importCsv(app, org.keys.write, t.id, csv);
    expect([res.status, res.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
    const details = res.body.error?.details as unknown as RowProblemsBody;
    expect(details.fields.map((f) => [f.field, f.problem.split(':')[0]])).toEqual([
      ['DisplayName', 'line 3'],
      ['Company', 'line 4'],
      ['FirstName', 'line 5'],
      ['JobTitle', 'line 6'],
      ['LastName', 'line 7'],
      ['LastName', 'line 8'],
      ['BusinessPhone', 'line 10'], // the CR inside line 8's quotes is a line break of the file
    ]);
    expect(details.fields[0].problem).toMatch(/formula/);
    await nothingWritten(t);
  });

  it('refuses the whole file when a row is invalid: 400 with each bad row’s line and columns, nothing written', async () => {
    const t = await createTenant(app, org.scope);
    const csv = [
      HEADER,
      'Good Row,good@example.com,Good,Row,,,',
      'Bad Mail,not-an-address,Bad,Mail,,,',
      'Good Two,good2@example.com,Good,Two,,,',
      ',nofirst@example.com,,Name,,,',
    ].join('\r\n');
    const res = await importCsv(app, org.keys.write, t.id, csv);
    expect([res.status, res.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
    const details = res.body.error?.details as unknown as RowProblemsBody;
    expect(details.fields).toEqual([
      { field: 'EmailAddress', problem: expect.stringMatching(/^line 3: /) },
      { field: 'FirstName', problem: 'line 5: is required' },
      { field: 'DisplayName', problem: 'line 5: is required' },
    ]);
    expect(details.rows).toEqual([
      {
        line: 3,
        email: 'not-an-address',
        status: 'invalid',
        contactId: null,
        errors: [{ field: 'EmailAddress', problem: expect.any(String) }],
      },
      {
        line: 5,
        email: 'nofirst@example.com',
        status: 'invalid',
        contactId: null,
        errors: [
          { field: 'FirstName', problem: 'is required' },
          { field: 'DisplayName', problem: 'is required' },
        ],
      },
    ]);
    expect(res.body.error?.message).toMatch(/lines 3, 5/);
    await nothingWritten(t);
  });

  it('400 naming an unknown column, a missing required column, a repeated column', async () => {
    const t = await createTenant(app, org.scope);
    const unknown = await importCsv(
      app,
      org.keys.write,
      t.id,
      `${HEADER},Nickname\nA B,a@example.com,A,B,,,,x`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.details.fields).toEqual([
      { field: 'Nickname', problem: expect.stringMatching(/not a known column/) },
    ]);
    const missing = await importCsv(
      app,
      org.keys.write,
      t.id,
      'DisplayName,EmailAddress,FirstName\nA,a@example.com,A',
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([
      { field: 'LastName', problem: 'is a required column' },
    ]);
    const twice = await importCsv(
      app,
      org.keys.write,
      t.id,
      `${HEADER},emailaddress\nA,a@example.com,A,B,,,,x`,
    );
    expect(twice.body.error?.details.fields).toEqual([
      { field: 'EmailAddress', problem: expect.any(String) },
    ]);
    await nothingWritten(t);
  });

  it('400 for malformed CSV (ragged row, open quote), an empty file, or a header with no rows', async () => {
    const t = await createTenant(app, org.scope);
    for (const csv of [
      `${HEADER}\nA,a@example.com,A`,
      `${HEADER}\n"A,a@example.com,A,B,,,`,
      '',
      `${HEADER}\n`,
    ]) {
      const res = await importCsv(app, org.keys.write, t.id, csv);
      expect([res.status, res.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
      expect((res.body.error?.details.fields as Array<{ field: string }>)[0].field).toMatch(/^(csv|body)$/);
    }
    await nothingWritten(t);
  });

  it('400 over 1,000 rows (nothing written); exactly 1,000 rows are imported', async () => {
    const t = await createTenant(app, org.scope);
    const rows = (n: number) =>
      [HEADER, ...Array.from({ length: n }, (_, i) => `Person ${i},p${i}@example.com,P,${i},,,`)].join('\n');
    const over = await importCsv(app, org.keys.write, t.id, rows(1001));
    expect(over.status).toBe(400);
    expect(over.body.error?.details.fields).toEqual([
      { field: 'csv', problem: expect.stringMatching(/1001 contact rows: at most 1000/) },
    ]);
    await nothingWritten(t);
    const full = await importCsv(app, org.keys.write, t.id, rows(1000));
    expect(full.status).toBe(200);
    expect(full.body.data.created).toBe(1000);
    expect(await contactRows(app, t.id)).toBe(1000);
    expect(await cloudContacts(app, t.externalId)).toHaveLength(1000);
  });

  it('400 for a CSV body over 10 MiB (DECISIONS), naming the body', async () => {
    const t = await createTenant(app, org.scope);
    const res = await importCsv(app, org.keys.write, t.id, `${HEADER}\n${'x'.repeat(10 * 1024 * 1024)}`);
    expect([res.status, res.body.error?.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(res.body.error?.details.fields).toEqual([
      { field: 'body', problem: `must be at most ${10 * 1024 * 1024} bytes` },
    ]);
    await nothingWritten(t);
  });

  it('needs write:users (Read 403), X-Tenant-Id (400), and hides other organizations (404)', async () => {
    const t = await createTenant(app, org.scope);
    const csv = `${HEADER}\nA B,a@example.com,A,B,,,`;
    const read = await importCsv(app, org.keys.read, t.id, csv);
    expect(read.status).toBe(403);
    const missing = await app.request<{ error?: { details: { fields: unknown } } }>(
      'POST',
      '/api/identity/contacts/bulk',
      { key: org.keys.write, rawBody: csv, headers: { 'content-type': 'text/csv' } },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await importCsv(app, other.keys.admin, t.id, csv);
    expect(foreign.status).toBe(404);
    await nothingWritten(t);
  });
});

describe('POST /api/identity/contacts/bulk (JSON) and importContacts', () => {
  it('takes {"csv": "..."}; other body fields are refused (400)', async () => {
    const t = await createTenant(app, org.scope);
    const csv = `${HEADER}\nA B,a@example.com,A,B,,,`;
    const res = await identity<ImportReportBody>(app, 'POST', '/contacts/bulk', {
      key: org.keys.write,
      tenantId: t.id,
      body: { csv },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, skipped: 0 });
    const extra = await identity(app, 'POST', '/contacts/bulk', {
      key: org.keys.write,
      tenantId: t.id,
      body: { csv, dryRun: true },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error?.details.fields).toEqual([{ field: 'dryRun', problem: 'is not a known field' }]);
    const none = await identity(app, 'POST', '/contacts/bulk', {
      key: org.keys.write,
      tenantId: t.id,
      body: {},
    });
    expect(none.status).toBe(400);
    expect(none.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'csv' })]);
  });

  it('is the GraphQL mutation importContacts, with UPPER_SNAKE row statuses', async () => {
    const t = await createTenant(app, org.scope);
    const res = await app.graphql<{ importContacts: { created: number; rows: Array<{ status: string }> } }>(
      org.keys.write,
      `mutation($t: UUID!, $csv: String!) { importContacts(tenantId: $t, csv: $csv) { created rows { status } } }`,
      { t: t.id, csv: `${HEADER}\nA B,a@example.com,A,B,,,\nA C,A@example.com,A,C,,,` },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.importContacts).toEqual({
      created: 1,
      rows: [{ status: 'CREATED' }, { status: 'DUPLICATE' }],
    });
  });
});
