import type { TenantLicense } from '../../src/licenses/license.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { AccountStatus, MfaStatus, UserSource } from '../../src/users/user.enums.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createSku, createUser, giveLicense } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { setUserColumns, um, type ManagedUserBody } from './um-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let sku: TenantLicense;
let people: Record<string, User>;

const DAY = 86_400_000;

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: { domain: 'contoso.example' } }));
  sku = await createSku(app, tenant, { total: 10, skuPartNumber: 'ENTERPRISEPACK', name: 'Office 365 E3' });
  const now = app.clock.now().getTime();
  people = {
    alice: await createUser(app, tenant, {
      firstName: 'Alice',
      lastName: 'Martin',
      userPrincipalName: 'alice.martin@contoso.example',
      department: 'Finance',
      mfaStatus: MfaStatus.ENFORCED,
      createdAt: new Date(now - 30 * DAY),
    }),
    bob: await createUser(app, tenant, {
      firstName: 'Bob',
      lastName: 'Marley',
      userPrincipalName: 'bob@contoso.example',
      department: 'finance',
      accountStatus: AccountStatus.DISABLED,
      createdAt: new Date(now - 20 * DAY),
    }),
    carol: await createUser(app, tenant, {
      firstName: 'Carol',
      lastName: 'Smith',
      userPrincipalName: 'csmith@contoso.example',
      department: 'Sales',
      source: UserSource.SYNCED,
      createdAt: new Date(now - 10 * DAY),
    }),
    svc: await createUser(app, tenant, {
      firstName: 'Backup',
      lastName: 'Service',
      userPrincipalName: 'svc-backup@contoso.example',
      isServiceAccount: true,
      createdAt: new Date(now - 5 * DAY),
    }),
  };
  await giveLicense(app, tenant, people.alice, sku);
  await giveLicense(app, tenant, people.carol, sku);
  await setUserColumns(app, people.alice.id, { last_sign_in_at: new Date(now - 1 * DAY) });
  await setUserColumns(app, people.bob.id, { last_sign_in_at: new Date(now - 100 * DAY) });
  await setUserColumns(app, people.carol.id, { last_sign_in_at: new Date(now - 40 * DAY) });
  // Mail is searched too: a member whose address differs from the UPN.
  await setUserColumns(app, people.carol.id, { email: 'carol.smith@mail.contoso.example' });
});
afterAll(() => app.stop());

async function names(query: string, key = org.keys.read): Promise<string[]> {
  const res = await um<ManagedUserBody[]>(app, 'GET', query, { key, tenantId: tenant.id });
  expect(res.status).toBe(200);
  return res.body.data.map((user) => user.displayName);
}

describe('GET /api/user-management-identity/users', () => {
  it('lists by display name A to Z by default, with the envelope meta', async () => {
    const res = await um<ManagedUserBody[]>(app, 'GET', '', { key: org.keys.read, tenantId: tenant.id });
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 4 });
    expect(res.body.data.map((u) => u.displayName)).toEqual([
      'Alice Martin',
      'Backup Service',
      'Bob Marley',
      'Carol Smith',
    ]);
  });

  it('searches display name, UPN and mail, contains or prefix, case-insensitively', async () => {
    expect(await names('?search=MAR')).toEqual(['Alice Martin', 'Bob Marley']);
    expect(await names('?search=mar&searchMode=prefix')).toEqual([]);
    expect(await names('?search=bo&searchMode=prefix')).toEqual(['Bob Marley']);
    expect(await names('?search=svc-')).toEqual(['Backup Service']);
    expect(await names('?search=mail.contoso')).toEqual(['Carol Smith']);
    expect(await names('?search=50%25')).toEqual([]); // LIKE wildcards are literal
  });

  it('filters one by one and combined', async () => {
    expect(await names('?accountStatus=Disabled')).toEqual(['Bob Marley']);
    expect(await names('?mfaStatus=Enforced')).toEqual(['Alice Martin']);
    expect(await names('?source=Synced')).toEqual(['Carol Smith']);
    expect(await names('?userType=Member&isServiceAccount=true')).toEqual(['Backup Service']);
    expect(await names('?department=FINANCE')).toEqual(['Alice Martin', 'Bob Marley']);
    expect(await names('?hasLicense=true')).toEqual(['Alice Martin', 'Carol Smith']);
    expect(await names('?hasLicense=false')).toEqual(['Backup Service', 'Bob Marley']);
    expect(await names(`?skuId=${sku.skuId}&department=sales`)).toEqual(['Carol Smith']);
    const cutoff = new Date(app.clock.now().getTime() - 30 * 86_400_000).toISOString();
    expect(await names(`?lastSignInBefore=${cutoff}`)).toEqual(['Bob Marley', 'Carol Smith']);
    expect(await names(`?lastSignInAfter=${cutoff}`)).toEqual(['Alice Martin']);
    expect(await names(`?search=mar&department=finance&accountStatus=Enabled&hasLicense=true`)).toEqual([
      'Alice Martin',
    ]);
  });

  it('sorts by created and last sign-in (never signed in last), both ways', async () => {
    expect(await names('?sortBy=createdAt')).toEqual([
      'Backup Service',
      'Carol Smith',
      'Bob Marley',
      'Alice Martin',
    ]);
    expect(await names('?sortBy=createdAt&sortOrder=asc')).toEqual([
      'Alice Martin',
      'Bob Marley',
      'Carol Smith',
      'Backup Service',
    ]);
    expect(await names('?sortBy=lastSignInAt')).toEqual([
      'Alice Martin',
      'Carol Smith',
      'Bob Marley',
      'Backup Service',
    ]);
    expect(await names('?sortBy=displayName&sortOrder=desc&limit=2&page=2')).toEqual([
      'Backup Service',
      'Alice Martin',
    ]);
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    for (const [query, field] of [
      ['?accountStatus=Sleeping', 'accountStatus'],
      ['?sortBy=salary', 'sortBy'],
      ['?lastSignInAfter=yesterday', 'lastSignInAfter'],
      ['?hasLicense=maybe', 'hasLicense'],
      [`?search=${'x'.repeat(257)}`, 'search'],
      ['?limit=101', 'limit'],
    ]) {
      const res = await um(app, 'GET', query, { key: org.keys.read, tenantId: tenant.id });
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_REQUEST',
      });
      expect(JSON.stringify(res.body.error?.details)).toContain(field);
    }
  });

  it('needs X-Tenant-Id (400), and answers 404 for another organization’s tenant', async () => {
    const missing = await um(app, 'GET', '', { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'X-Tenant-Id' })]);
    const foreign = await um(app, 'GET', '', { key: other.keys.admin, tenantId: tenant.id });
    expect(foreign.status).toBe(404);
  });

  it('GraphQL searchUsers returns the same page', async () => {
    const res = await app.graphql<{ searchUsers: { items: Array<{ displayName: string }> } }>(
      org.keys.read,
      `query($t: UUID!) { searchUsers(tenantId: $t, search: "mar", hasLicense: true, sortBy: DISPLAY_NAME) {
        items { displayName } pageInfo { total } } }`,
      { t: tenant.id },
    );
    expect(res.body.data?.searchUsers.items).toEqual([{ displayName: 'Alice Martin' }]);
  });

  it('costs the same SQL statements at limit=1 and limit=4 (licenses and groups batched)', async () => {
    const read = async (limit: number) => {
      const res = await app.graphql<{ searchUsers: { items: unknown[] } }>(
        org.keys.read,
        `query($t: UUID!, $l: Int) { searchUsers(tenantId: $t, limit: $l) {
          items { id licenses licenseDetails { name } groups { displayName } } } }`,
        { t: tenant.id, l: limit },
      );
      expect(res.body.data?.searchUsers.items).toHaveLength(limit);
    };
    await read(1);
    const small = await app.sql.during(() => read(1));
    const large = await app.sql.during(() => read(4));
    expect(large).toBe(small);
  });
});

// The indexed search and its plan under row-level security: users-search-plan.test.ts.
