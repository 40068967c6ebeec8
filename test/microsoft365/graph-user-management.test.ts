import type { User } from '@microsoft/microsoft-graph-types';
import { CloudError } from '../../src/cloud/cloud-error.js';
import { graphUserManagement } from '../../src/cloud/microsoft365/graph-user-management.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { UserManagementCloud } from '../../src/cloud/user-management.provider.js';
import { toAppError } from '../../src/core/errors.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import { FULL_ROLES, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

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

async function failure(promise: Promise<unknown>): Promise<CloudError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CloudError);
  return error as CloudError;
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
    const error = await failure(
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
    const error = await failure(
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
    fakeAreaState(tenant).groupMembers.set('g-sales', new Set([user.id!]));
    await cloud.removeGroupMember('g-sales', user.id!);
    await cloud.removeGroupMember('g-sales', user.id!);
    expect(fakeAreaState(tenant).groupMembers.get('g-sales')?.size).toBe(0);
    expect(graphRequests().map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
      `DELETE /v1.0/groups/g-sales/members/${user.id}/$ref 204`,
      `DELETE /v1.0/groups/g-sales/members/${user.id}/$ref 404`,
    ]);
  });

  it('still fails when Graph refuses the permission', async () => {
    const error = await failure(cloudFor(['User.Read.All']).removeGroupMember('g-sales', user.id!));
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

describe('what Graph v1.0 cannot do', () => {
  it.each([
    ['getMailbox', () => cloud.getMailbox(user.id!), 'sharedMailboxes'],
    ['convertMailboxToShared', () => cloud.convertMailboxToShared(user.id!), 'sharedMailboxes'],
    ['addMailboxDelegate', () => cloud.addMailboxDelegate(user.id!, 'someone'), 'mailboxDelegation'],
    ['transferFiles', () => cloud.transferFiles(user.id!, 'someone'), 'oneDriveTransfer'],
    ['listDriveItems', () => cloud.listDriveItems(user.id!, { offset: 0, limit: 10 }), 'deletedUserOneDrive'],
    ['grantDriveAccess', () => cloud.grantDriveAccess(user.id!, 'someone'), 'deletedUserOneDrive'],
  ] as const)(
    '%s answers Unsupported (501 NOT_SUPPORTED) naming %s, calling nothing',
    async (_, call, capability) => {
      const error = await failure(call());
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
