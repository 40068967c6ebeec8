import type { User } from '@microsoft/microsoft-graph-types';
import { graphLicenses } from '../../src/cloud/microsoft365/graph-licenses.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { CloudLicenses } from '../../src/cloud/tenant-cloud.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario, cloudFailure } from '../helpers/graph-fake.js';

let scenario: GraphScenario;
let tenant: FakeTenant;
let licenses: CloudLicenses;

const E5 = 'c7df2760-2c81-4ef7-b578-5b5392b571df';
const BUSINESS_PREMIUM = 'cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46';
const UNNAMED = '11111111-2222-3333-4444-555555555555';

function licensesFor(roles: string[] = FULL_ROLES): CloudLicenses {
  tenant.consents.set(scenario.app.clientId, { roles });
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
  return graphLicenses(transport.forTenant(credentials, tenant.id));
}

function addUser(name: string, fields: Partial<User> = {}): User {
  return scenario.fake.state.putUser(tenant, fakeUser(tenant, name, fields));
}

const graphWrites = () =>
  scenario.fake.requests
    .filter((request) => request.service === 'graph' && request.method !== 'GET')
    .map(({ method, url, body, status }) => ({ method, url, body, status }));

beforeAll(async () => {
  scenario = await startGraphScenario();
  tenant = scenario.fake.state.addTenant({ displayName: 'Woodgrove' });
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  tenant.users.length = 0;
  tenant.skus = [
    {
      skuId: E5,
      skuPartNumber: 'ENTERPRISEPREMIUM',
      appliesTo: 'User',
      capabilityStatus: 'Enabled',
      consumedUnits: 0,
      prepaidUnits: { enabled: 2, suspended: 0, warning: 1, lockedOut: 0 },
    },
    {
      skuId: BUSINESS_PREMIUM,
      skuPartNumber: 'SPB',
      appliesTo: 'User',
      capabilityStatus: 'Enabled',
      consumedUnits: 0,
      prepaidUnits: { enabled: 0, suspended: 5, warning: 0, lockedOut: 0 },
    },
    {
      skuId: UNNAMED,
      skuPartNumber: 'CONTOSO_CUSTOM_ADDON',
      appliesTo: 'User',
      consumedUnits: 0,
      prepaidUnits: { enabled: 7 },
    },
    {
      skuId: '99999999-0000-0000-0000-000000000000',
      skuPartNumber: 'RMSBASIC',
      appliesTo: 'Company',
      consumedUnits: 0,
      prepaidUnits: { enabled: 1 },
    },
  ];
  licenses = licensesFor();
  scenario.fake.clearRequests();
});

describe('listSkus: GET /subscribedSkus', () => {
  it('gives each user SKU its part number, a readable name and its enabled seats', async () => {
    expect(await allPages(licenses.listSkus())).toEqual([
      { skuId: E5, skuPartNumber: 'ENTERPRISEPREMIUM', name: 'Office 365 E5', prepaidUnits: 2 },
      // A suspended subscription has no seat to give.
      {
        skuId: BUSINESS_PREMIUM,
        skuPartNumber: 'SPB',
        name: 'Microsoft 365 Business Premium',
        prepaidUnits: 0,
      },
      // A part number Microsoft's list does not name is shown as itself; a company-wide SKU is not listed.
      {
        skuId: UNNAMED,
        skuPartNumber: 'CONTOSO_CUSTOM_ADDON',
        name: 'CONTOSO_CUSTOM_ADDON',
        prepaidUnits: 7,
      },
    ]);
    expect(scenario.fake.graphCalls()).toEqual(['GET /v1.0/subscribedSkus']);
  });

  it('needs a license-reading permission: Forbidden naming the missing permission otherwise', async () => {
    const error = await cloudFailure(allPages(licensesFor(['User.ReadWrite.All']).listSkus()));
    expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
  });
});

describe('listLicenseAssignments: GET /users?$select=id,assignedLicenses', () => {
  it('reads every user’s assignedLicenses in pages of 999 users (one request for a small tenant)', async () => {
    const adele = addUser('Adele Vance', { assignedLicenses: [{ skuId: E5, disabledPlans: [] }] });
    addUser('Alex Wilber');
    const lee = addUser('Lee Gu', {
      assignedLicenses: [
        { skuId: E5, disabledPlans: [] },
        { skuId: UNNAMED, disabledPlans: [] },
      ],
    });
    expect(await allPages(licenses.listLicenseAssignments())).toEqual([
      { userExternalId: adele.id, skuId: E5 },
      { userExternalId: lee.id, skuId: E5 },
      { userExternalId: lee.id, skuId: UNNAMED },
    ]);
    expect(scenario.fake.graphCalls()).toEqual(['GET /v1.0/users?$select=id,assignedLicenses&$top=999']);
  });
});

describe('assignLicense and removeLicense: POST /users/{id}/assignLicense', () => {
  it('adds the SKU with no disabled plans, then removes it, as Graph documents the body', async () => {
    const user = addUser('Diego Siciliani');
    await licenses.assignLicense(user.id!, E5);
    expect(tenant.users.find((r) => r.user.id === user.id)?.user.assignedLicenses).toEqual([
      { skuId: E5, disabledPlans: [] },
    ]);
    expect(tenant.skus[0].consumedUnits).toBe(1);
    await licenses.removeLicense(user.id!, E5);
    expect(tenant.users.find((r) => r.user.id === user.id)?.user.assignedLicenses).toEqual([]);
    expect(tenant.skus[0].consumedUnits).toBe(0);
    expect(graphWrites()).toEqual([
      {
        method: 'POST',
        url: `/v1.0/users/${user.id}/assignLicense`,
        body: { addLicenses: [{ skuId: E5, disabledPlans: [] }], removeLicenses: [] },
        status: 200,
      },
      {
        method: 'POST',
        url: `/v1.0/users/${user.id}/assignLicense`,
        body: { addLicenses: [], removeLicenses: [E5] },
        status: 200,
      },
    ]);
  });

  it('removes a license the user does not hold as a success (Graph: no corresponding license)', async () => {
    const user = addUser('Grady Archie');
    await licenses.removeLicense(user.id!, E5);
    expect(graphWrites()).toEqual([expect.objectContaining({ status: 400 })]);
  });

  it.each([
    [
      'no usage location',
      'USAGE_LOCATION_REQUIRED',
      /usage location/,
      () => ({ user: addUser('Isaiah Langer', { usageLocation: null }), skuId: E5 }),
    ],
    [
      'no seat left',
      'NO_FREE_SEAT',
      /does not have any available licenses/,
      () => {
        tenant.skus[0].consumedUnits = 2;
        return { user: addUser('Johanna Lorenz'), skuId: E5 };
      },
    ],
    [
      'a SKU the tenant does not subscribe to',
      'UNKNOWN_SKU',
      /does not correspond to a valid company License/,
      () => ({ user: addUser('Megan Bowen'), skuId: '00000000-1111-2222-3333-444444444444' }),
    ],
  ] as const)(
    'maps Graph’s 400 for %s to Refused %s, with Graph’s message',
    async (_, refusal, text, setup) => {
      const { user, skuId } = setup();
      const error = await cloudFailure(licenses.assignLicense(user.id!, skuId));
      expect(error).toMatchObject({
        kind: 'Refused',
        refusal,
        cloudCode: 'Request_BadRequest',
        provider: 'microsoft365',
      });
      expect(error.message).toMatch(text);
      expect(tenant.users.find((r) => r.user.id === user.id)?.user.assignedLicenses).toEqual([]);
    },
  );

  it('maps a user Graph does not have to NotFound, and a missing permission to Forbidden', async () => {
    const missing = await cloudFailure(licenses.assignLicense('7a0c0a42-0000-4000-8000-000000000000', E5));
    expect(missing).toMatchObject({ kind: 'NotFound', cloudCode: 'Request_ResourceNotFound' });
    const user = addUser('Nestor Wilke');
    const denied = await cloudFailure(licensesFor(['User.Read.All']).assignLicense(user.id!, E5));
    expect(denied).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
  });
});
