import type { User } from '@microsoft/microsoft-graph-types';
import { graphUserManagement } from '../../src/cloud/microsoft365/graph-user-management.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { UserManagementCloud } from '../../src/cloud/user-management.provider.js';
import { toAppError } from '../../src/core/errors.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeDirectory } from '../graph-fake/graph-fake-directory.js';
import {
  fakeDrive,
  putDriveItem,
  setCopyPendingPolls,
  type FakeDrive,
} from '../graph-fake/graph-fake-drives.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario, cloudFailure } from '../helpers/graph-fake.js';

let scenario: GraphScenario;
let tenant: FakeTenant;
let cloud: UserManagementCloud;
let user: User;

function cloudFor(roles: string[] = FULL_ROLES): UserManagementCloud {
  tenant.consents.set(scenario.app.clientId, { roles });
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
  return graphUserManagement(transport.forTenant(credentials, tenant.id));
}

const graphRequests = () =>
  scenario.fake.requests
    .filter((request) => request.service === 'graph')
    .map(({ method, url, body, status }) => ({ method, url, body, status }));

beforeAll(async () => {
  scenario = await startGraphScenario();
  tenant = scenario.fake.state.addTenant({ displayName: 'Woodgrove' });
  user = scenario.fake.state.putUser(tenant, fakeUser(tenant, 'Adele Vance'));
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  cloud = cloudFor();
  scenario.fake.clearRequests();
});

describe('resetPassword: PATCH /users/{id} with passwordProfile', () => {
  it('sends the password and whether it must change at the next sign-in', async () => {
    await cloud.resetPassword(user.id!, { password: 'Correct-Horse-42', forceChangeAtNextSignIn: true });
    expect(graphRequests()).toEqual([
      {
        method: 'PATCH',
        url: `/v1.0/users/${user.id}`,
        body: { passwordProfile: { password: 'Correct-Horse-42', forceChangePasswordNextSignIn: true } },
        status: 204,
      },
    ]);
    expect(fakeAreaState(tenant).passwords.get(user.id!)).toEqual({
      password: 'Correct-Horse-42',
      forceChangePasswordNextSignIn: true,
    });
  });

  it('marks a password Graph’s own rules refuse as Refused PASSWORD_REJECTED', async () => {
    const error = await cloudFailure(
      cloud.resetPassword(user.id!, { password: 'Password-2026!', forceChangeAtNextSignIn: false }),
    );
    expect(error).toMatchObject({
      kind: 'Refused',
      refusal: 'PASSWORD_REJECTED',
      cloudCode: 'Request_BadRequest',
    });
    expect(error.message).toMatch(/password complexity/);
  });

  it('needs User-PasswordProfile.ReadWrite.All: User.ReadWrite.All alone is refused (Forbidden)', async () => {
    const error = await cloudFailure(
      cloudFor(['User.ReadWrite.All']).resetPassword(user.id!, {
        password: 'Correct-Horse-42',
        forceChangeAtNextSignIn: true,
      }),
    );
    expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
  });
});

describe('removeGroupMember: DELETE /groups/{id}/members/{userId}/$ref', () => {
  it('removes the membership; a user no longer a member is fine (Graph answers 404)', async () => {
    fakeDirectory(tenant).groups.push({ id: 'g-sales', displayName: 'Sales', memberIds: [user.id!] });
    await cloud.removeGroupMember('g-sales', user.id!);
    await cloud.removeGroupMember('g-sales', user.id!);
    expect(fakeDirectory(tenant).groups.find((group) => group.id === 'g-sales')?.memberIds).toEqual([]);
    expect(graphRequests().map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
      `DELETE /v1.0/groups/g-sales/members/${user.id}/$ref 204`,
      `DELETE /v1.0/groups/g-sales/members/${user.id}/$ref 404`,
    ]);
  });

  it('still fails when Graph refuses the permission', async () => {
    const error = await cloudFailure(cloudFor(['User.Read.All']).removeGroupMember('g-sales', user.id!));
    expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
  });
});

describe('setAutoReply: PATCH /users/{id}/mailboxSettings', () => {
  it('turns the automatic reply on for every sender, then off', async () => {
    await cloud.setAutoReply(user.id!, 'I have left Woodgrove; write to sales@woodgrove.com.');
    await cloud.setAutoReply(user.id!, null);
    expect(graphRequests()).toEqual([
      {
        method: 'PATCH',
        url: `/v1.0/users/${user.id}/mailboxSettings`,
        body: {
          automaticRepliesSetting: {
            status: 'alwaysEnabled',
            externalAudience: 'all',
            internalReplyMessage: 'I have left Woodgrove; write to sales@woodgrove.com.',
            externalReplyMessage: 'I have left Woodgrove; write to sales@woodgrove.com.',
          },
        },
        status: 200,
      },
      {
        method: 'PATCH',
        url: `/v1.0/users/${user.id}/mailboxSettings`,
        body: { automaticRepliesSetting: { status: 'disabled' } },
        status: 200,
      },
    ]);
    expect(fakeAreaState(tenant).autoReplies.get(user.id!)).toEqual({ status: 'disabled' });
  });
});

describe('transferFiles: copy across OneDrives, watched to completion, then delete the source', () => {
  let leaver: User;
  let manager: User;
  beforeAll(() => {
    leaver = scenario.fake.state.putUser(tenant, fakeUser(tenant, 'Diego Siciliani'));
    manager = scenario.fake.state.putUser(tenant, fakeUser(tenant, 'Megan Bowen'));
  });
  beforeEach(() => {
    for (const owner of [leaver, manager]) fakeDrive(tenant, owner.id!).items.length = 0;
  });
  afterEach(() => setCopyPendingPolls(0));

  const tree = (drive: FakeDrive, parentId = drive.rootId): unknown[] =>
    drive.items
      .filter((item) => item.parentId === parentId)
      .map((item) => (item.folder ? { [item.name]: tree(drive, item.id) } : item.name))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it('moves every root item under "Transferred from <name>", in the exact Graph requests', async () => {
    const source = fakeDrive(tenant, leaver.id!);
    const budget = putDriveItem(source, 'Budget.xlsx');
    const projects = putDriveItem(source, 'Projects', { folder: { childCount: 1 }, file: undefined });
    putDriveItem(source, 'Plan.docx', { parentId: projects.id });
    const target = fakeDrive(tenant, manager.id!);
    putDriveItem(target, 'Own file.docx');

    expect(await cloud.transferFiles(leaver.id!, manager.id!)).toBe(2);
    expect(tree(source)).toEqual([]);
    expect(tree(target)).toEqual([
      'Own file.docx',
      { 'Transferred from Diego Siciliani': ['Budget.xlsx', { Projects: ['Plan.docx'] }] },
    ]);
    const folderId = target.items.find((item) => item.name === 'Transferred from Diego Siciliani')!.id;
    const calls = graphRequests().map(({ method, url, body, status }) => ({
      call: `${method} ${url.replace(/\/monitor\/[-\w]+/, '/monitor/{id}')} ${status}`,
      ...(body === undefined ? {} : { body }),
    }));
    const copy = (id: string, name: string) => [
      {
        call: `POST /v1.0/users/${leaver.id}/drive/items/${id}/copy?@microsoft.graph.conflictBehavior=replace 202`,
        body: { parentReference: { driveId: target.id, id: folderId }, name },
      },
      { call: 'GET /monitor/{id} 200' },
      { call: `DELETE /v1.0/users/${leaver.id}/drive/items/${id} 204` },
    ];
    expect(calls).toEqual([
      { call: `GET /v1.0/users/${leaver.id}/drive/root/children?$select=id,name 200` },
      { call: `GET /v1.0/users/${leaver.id}/drive?$select=id,owner 200` },
      { call: `GET /v1.0/users/${manager.id}/drive?$select=id 200` },
      {
        call: `POST /v1.0/drives/${target.id}/root/children 201`,
        body: {
          name: 'Transferred from Diego Siciliani',
          folder: {},
          '@microsoft.graph.conflictBehavior': 'fail',
        },
      },
      ...copy(budget.id, 'Budget.xlsx'),
      ...copy(projects.id, 'Projects'),
    ]);

    // Idempotent: nothing left to move, nothing asked but the list.
    scenario.fake.clearRequests();
    expect(await cloud.transferFiles(leaver.id!, manager.id!)).toBe(0);
    expect(graphRequests().map(({ method, url }) => `${method} ${url}`)).toEqual([
      `GET /v1.0/users/${leaver.id}/drive/root/children?$select=id,name`,
    ]);
  });

  it('resumes an interrupted transfer: the folder is reused, a partial copy replaced, a running copy awaited', async () => {
    const source = fakeDrive(tenant, leaver.id!);
    putDriveItem(source, 'Contract.pdf', { size: 2048 });
    const target = fakeDrive(tenant, manager.id!);
    // A first run made the folder and began copying Contract.pdf before it stopped.
    const folder = putDriveItem(target, 'Transferred from Diego Siciliani', { folder: {}, file: undefined });
    putDriveItem(target, 'Contract.pdf', { parentId: folder.id, size: 10 });
    setCopyPendingPolls(1);

    expect(await cloud.transferFiles(leaver.id!, manager.id!)).toBe(1);
    expect(target.items.filter((item) => item.parentId === folder.id)).toEqual([
      expect.objectContaining({ name: 'Contract.pdf', size: 2048 }),
    ]);
    expect(tree(source)).toEqual([]);
    const calls = graphRequests().map(
      ({ method, url, status }) => `${method} ${url.split('?')[0]} ${status}`,
    );
    expect(calls).toContain(`POST /v1.0/drives/${target.id}/root/children 409`);
    expect(calls).toContain(`GET /v1.0/drives/${target.id}/root:/Transferred from Diego Siciliani 200`);
    expect(calls.filter((call) => call.startsWith('GET /monitor/'))).toEqual([
      expect.stringMatching(/ 202$/),
      expect.stringMatching(/ 200$/),
    ]);
  });

  it('needs Files.ReadWrite.All (Forbidden otherwise), and moves nothing', async () => {
    const source = fakeDrive(tenant, leaver.id!);
    putDriveItem(source, 'Notes.txt');
    const error = await cloudFailure(cloudFor(['User.ReadWrite.All']).transferFiles(leaver.id!, manager.id!));
    expect(error).toMatchObject({ kind: 'Forbidden', reason: 'PERMISSION_MISSING' });
    expect(tree(source)).toEqual(['Notes.txt']);
  });
});

describe('what Graph v1.0 cannot do', () => {
  it.each([
    ['getMailbox', 'sharedMailboxes', () => cloud.getMailbox(user.id!)],
    ['convertMailboxToShared', 'sharedMailboxes', () => cloud.convertMailboxToShared(user.id!)],
    ['addMailboxDelegate', 'mailboxDelegation', () => cloud.addMailboxDelegate(user.id!, 'someone')],
    ['listDriveItems', 'deletedUserOneDrive', () => cloud.listDriveItems(user.id!, { offset: 0, limit: 10 })],
    ['grantDriveAccess', 'deletedUserOneDrive', () => cloud.grantDriveAccess(user.id!, 'someone')],
  ] as const)(
    '%s answers Unsupported (501 NOT_SUPPORTED) naming %s, calling nothing',
    async (_, capability, call) => {
      const error = await cloudFailure(call());
      expect(error).toMatchObject({ kind: 'Unsupported', capability, provider: 'microsoft365' });
      const answer = toAppError(error);
      expect([answer.httpStatus, answer.code, answer.details]).toEqual([
        501,
        'NOT_SUPPORTED',
        { capability, provider: 'microsoft365' },
      ]);
      expect(graphRequests()).toEqual([]);
    },
  );
});
