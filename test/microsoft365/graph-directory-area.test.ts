import { CloudError } from '../../src/cloud/cloud-error.js';
import { graphDirectory } from '../../src/cloud/microsoft365/graph-users.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { CloudDirectory } from '../../src/cloud/tenant-cloud.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import { fakeUser } from '../graph-fake/graph-fake-state.js';
import { startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/** The directory area on the Graph fake, without a server: the Graph requests each method makes. */
let scenario: GraphScenario;
let directory: CloudDirectory;
const NOW = new Date('2026-11-01T12:00:00Z');

beforeAll(async () => {
  scenario = await startGraphScenario();
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const graph = transport.forTenant(
    { clientId: scenario.app.clientId, clientSecret: scenario.secret },
    scenario.consented.id,
  );
  directory = graphDirectory(graph, scenario.fake.graphUrl, () => NOW);
});
afterAll(() => scenario.fake.stop());
beforeEach(() => scenario.fake.clearRequests());

const input = (upn: string) => ({
  userPrincipalName: upn,
  displayName: 'Pradeep Gupta',
  firstName: 'Pradeep',
  lastName: 'Gupta',
  jobTitle: null,
  department: 'Finance',
  companyName: null,
  officeLocation: null,
  businessPhone: '+1 425 555 0109',
  mobilePhone: null,
  employeeId: null,
  employeeType: null,
  managerExternalId: null,
  usageLocation: 'DE',
  accountEnabled: true,
  mfaStatus: 'Disabled' as const,
  userType: 'Member' as const,
  isServiceAccount: false,
  password: 'Correct-Horse-Battery-9',
});

describe('the Graph directory area', () => {
  it('createUser with a requestKey looks the UPN up first, so a retried write creates nothing twice', async () => {
    const created = await directory.createUser({
      ...input('pradeep.gupta@fabrikam.com'),
      requestKey: 'import:1:2',
    });
    expect(created).toMatchObject({
      userPrincipalName: 'pradeep.gupta@fabrikam.com',
      businessPhone: '+1 425 555 0109',
      usageLocation: 'DE',
    });
    const again = await directory.createUser({
      ...input('pradeep.gupta@fabrikam.com'),
      requestKey: 'import:1:2',
    });
    expect(again.externalId).toBe(created.externalId);
    const lookup = "GET /v1.0/users?$filter=userPrincipalName eq 'pradeep.gupta@fabrikam.com'";
    const calls = scenario.fake.graphCalls().map((call) => call.replace(/&\$select=.*$/, ''));
    expect(calls).toEqual([lookup, 'POST /v1.0/users', lookup]);
  });

  it("a refused create is Refused with Graph's message (a UPN taken upstream)", async () => {
    const error = await directory
      .createUser(input('pradeep.gupta@fabrikam.com'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CloudError);
    expect(error).toMatchObject({
      kind: 'Refused',
      message: expect.stringContaining('userPrincipalName already exists'),
    });
  });

  it('lists groups with their members in one $batch per page of groups', async () => {
    const users = scenario.consented.users.map((record) => record.user.id!);
    fakeDirectory(scenario.consented).groups = [
      { id: 'g1', displayName: 'Sales', memberIds: [users[0], users[1]] },
      { id: 'g2', displayName: 'Finance', memberIds: [users[2]] },
      { id: 'g3', displayName: 'Empty', memberIds: [] },
    ];
    expect(await allPages(directory.listGroups())).toEqual([
      { externalId: 'g1', displayName: 'Sales', memberExternalIds: [users[0], users[1]] },
      { externalId: 'g2', displayName: 'Finance', memberExternalIds: [users[2]] },
      { externalId: 'g3', displayName: 'Empty', memberExternalIds: [] },
    ]);
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/groups?$select=id,displayName',
      'POST /v1.0/$batch',
    ]);
  });

  it('lists sign-ins since a time with createdDateTime ge, mapping risk and place', async () => {
    fakeDirectory(scenario.consented).signIns = [
      {
        id: 's1',
        userPrincipalName: 'adele.vance@fabrikam.com',
        createdDateTime: '2026-10-31T09:00:00Z',
        ipAddress: '203.0.113.7',
        riskLevelAggregated: 'high',
        location: { city: 'Lagos', countryOrRegion: 'NG' },
      },
      { id: 's0', userPrincipalName: 'old@fabrikam.com', createdDateTime: '2026-10-01T09:00:00Z' },
    ];
    expect(await allPages(directory.listSignIns(new Date('2026-10-30T00:00:00Z')))).toEqual([
      {
        id: 's1',
        userPrincipalName: 'adele.vance@fabrikam.com',
        riskLevel: 'high',
        location: 'Lagos, NG',
        ipAddress: '203.0.113.7',
        createdAt: '2026-10-31T09:00:00Z',
      },
    ]);
    expect(scenario.fake.graphCalls()).toEqual([
      'GET /v1.0/auditLogs/signIns?$filter=createdDateTime ge 2026-10-30T00:00:00.000Z',
    ]);
  });

  it('restore of a purged user is null; purge of a user active again upstream is false, of one gone true', async () => {
    const kept = scenario.fake.state.putUser(
      scenario.consented,
      fakeUser(scenario.consented, 'Isaiah Langer'),
    );
    expect(await directory.purgeUser(kept.id!)).toBe(false);
    expect(
      await directory.restoreUser('00000000-0000-4000-8000-000000000000', {
        userPrincipalName: 'x@fabrikam.com',
        accountEnabled: true,
      }),
    ).toBeNull();
    expect(await directory.purgeUser('00000000-0000-4000-8000-000000000000')).toBe(true);
    // Restoring a user already active gives it the same values again (idempotent).
    const again = await directory.restoreUser(kept.id!, {
      userPrincipalName: 'isaiah.langer@fabrikam.com',
      accountEnabled: false,
    });
    expect(again).toMatchObject({ externalId: kept.id, accountEnabled: false, deletedAt: null });
  });
});
