import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createGroup, createUser } from '../factories/shared.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import { fakeDrive, putDriveItem } from '../graph-fake/graph-fake-drives.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import type { DataOf } from '../helpers/api-types.js';
import {
  FULL_ROLES,
  startGraphScenario,
  useGraphAreasOf,
  type GraphScenario,
} from '../helpers/graph-fake.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { um } from '../user-management/um-kit.js';

/**
 * The offboarding job over the Microsoft 365 user-management area (graph-areas.ts) of a tenant whose
 * directory stays simulated: the automatic reply, the file transfer and the group removals go to Graph; an
 * offboarding that asks for the mailbox conversion, which Graph v1.0 has no API for, is refused before it starts.
 */
let app: RealmApp;
let org: OrganizationWithKeys;
let scenario: GraphScenario;
let tenant: Tenant;
let upstream: FakeTenant;

type OffboardingBody = DataOf<'getUserOffboarding'>;

beforeAll(async () => {
  ({ app, org, tenant } = await realmSuite({ tenant: true }));
  scenario = await startGraphScenario();
  upstream = scenario.fake.state.addTenant({ id: tenant.externalId });
  upstream.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
  await useGraphAreasOf(app, scenario, tenant.externalId, upstream);
});
afterAll(async () => {
  await scenario.fake.stop();
  await app.stop();
});

/** A leaver with a manager and a group, here and on Graph, with two files in the leaver's OneDrive. */
async function leaver(): Promise<{ user: User; manager: User; groupId: string }> {
  const manager = await createUser(app, tenant, { firstName: 'Mona', lastName: 'Manager' });
  const user = await createUser(app, tenant, { firstName: 'Lee', lastName: 'Leaver', managerId: manager.id });
  const group = await createGroup(app, tenant, { displayName: 'Sales', members: [user, manager] });
  for (const person of [manager, user])
    scenario.fake.state.putUser(upstream, fakeUser(upstream, person.displayName, { id: person.externalId }));
  fakeDirectory(upstream).groups.push({
    id: group.externalId,
    displayName: group.displayName,
    memberIds: [user.externalId, manager.externalId],
  });
  const drive = fakeDrive(upstream, user.externalId);
  putDriveItem(drive, 'Pipeline.xlsx');
  putDriveItem(drive, 'Accounts', { folder: { childCount: 0 }, file: undefined });
  return { user, manager, groupId: group.externalId };
}

async function offboardAndRun(user: User, body: unknown): Promise<OffboardingBody> {
  const started = await um<OffboardingBody>(app, 'POST', `/${user.id}/offboard`, {
    key: org.keys.admin,
    tenantId: tenant.id,
    body,
  });
  expect(started.status).toBe(202);
  scenario.fake.clearRequests();
  await onServer(app, 'runOffboarding', { offboardingId: started.body.data.id, ...org.scope });
  const res = await um<OffboardingBody>(app, 'GET', `/${user.id}/offboard/${started.body.data.id}`, {
    key: org.keys.read,
    tenantId: tenant.id,
  });
  return res.body.data;
}

it('sets the automatic reply, moves the files to the manager and leaves the groups through Graph', async () => {
  const { user, manager, groupId } = await leaver();
  const done = await offboardAndRun(user, {
    convertMailboxToShared: false,
    removeLicenses: false,
    autoReplyMessage: 'Lee has left; please write to Mona.',
    transferFilesTo: 'manager',
  });
  expect(done.status).toBe('Completed');
  expect(Object.fromEntries(done.steps.map((step) => [step.name, step.result]))).toMatchObject({
    setAutoReply: 'automatic reply set',
    transferFiles: `2 file(s) moved to ${manager.userPrincipalName}`,
    removeGroups: 'removed from 1 group(s)',
  });
  expect(fakeAreaState(upstream).autoReplies.get(user.externalId)).toMatchObject({
    status: 'alwaysEnabled',
    internalReplyMessage: 'Lee has left; please write to Mona.',
  });
  const target = fakeDrive(upstream, manager.externalId);
  const folder = target.items.find((item) => item.name === `Transferred from ${user.displayName}`)!;
  expect(
    target.items
      .filter((item) => item.parentId === folder.id)
      .map((item) => item.name)
      .sort(),
  ).toEqual(['Accounts', 'Pipeline.xlsx']);
  expect(fakeDrive(upstream, user.externalId).items).toEqual([]);
  expect(fakeDirectory(upstream).groups.find((group) => group.id === groupId)?.memberIds).toEqual([
    manager.externalId,
  ]);
  const writes = scenario.fake
    .graphCalls()
    .filter((call) => !call.startsWith('GET'))
    .map((call) => call.split('?')[0].split(user.externalId).join('{leaver}'));
  expect(writes).toEqual([
    'PATCH /v1.0/users/{leaver}/mailboxSettings',
    expect.stringMatching(/^POST \/v1\.0\/drives\/.+\/root\/children$/),
    expect.stringMatching(/^POST \/v1\.0\/users\/\{leaver\}\/drive\/items\/.+\/copy$/),
    expect.stringMatching(/^DELETE \/v1\.0\/users\/\{leaver\}\/drive\/items\//),
    expect.stringMatching(/^POST \/v1\.0\/users\/\{leaver\}\/drive\/items\/.+\/copy$/),
    expect.stringMatching(/^DELETE \/v1\.0\/users\/\{leaver\}\/drive\/items\//),
    `DELETE /v1.0/groups/${groupId}/members/{leaver}/$ref`,
  ]);
});

it('refuses an offboarding that needs the mailbox conversion up front: 501, nothing recorded or changed', async () => {
  const { user } = await leaver();
  scenario.fake.clearRequests();
  const refused = await um<OffboardingBody>(app, 'POST', `/${user.id}/offboard`, {
    key: org.keys.admin,
    tenantId: tenant.id,
    body: {},
  });
  expect(refused.status).toBe(501);
  expect(refused.body.error).toMatchObject({
    code: 'NOT_SUPPORTED',
    message: expect.stringMatching(/^Nothing was started: .*Exchange Online PowerShell/),
    details: { capability: 'sharedMailboxes', provider: 'microsoft365' },
  });
  const { rows } = await app.pool.query<{ account_status: string; offboardings: string }>(
    `select account_status, (select count(*) from user_offboardings where user_id = $1) as offboardings
       from users where id = $1`,
    [user.id],
  );
  expect(rows[0]).toEqual({ account_status: 'Enabled', offboardings: '0' });
  expect(scenario.fake.graphCalls()).toEqual([]);
});
