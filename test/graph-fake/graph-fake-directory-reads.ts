import { randomUUID } from 'node:crypto';
import type { Invitation } from '@microsoft/microsoft-graph-types';
import type { FakeDirectory } from './graph-fake-directory.js';
import type { FakeReply } from './graph-fake-login.js';
import type { FakeTenant, FakeUserRecord, GraphFakeState } from './graph-fake-state.js';
import { graphError, type GraphCall } from './graph-fake-graph.js';

/**
 * The directory's reads (groups, directory roles and their members, sign-in logs) and invitations, for
 * graph-fake-directory.ts, with the helpers both use.
 */

/** Application permissions that allow each call (Graph's permission reference, least privileged first). */
export const DIRECTORY_ROLES = {
  usersRead: ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  usersWrite: ['User.ReadWrite.All', 'Directory.ReadWrite.All'],
  invite: ['User.Invite.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  groups: ['GroupMember.Read.All', 'GroupMember.ReadWrite.All', 'Group.Read.All', 'Directory.Read.All'],
  roles: ['RoleManagement.Read.Directory', 'RoleManagement.ReadWrite.Directory', 'Directory.Read.All'],
  signIns: ['AuditLog.Read.All'],
};

export const notFound = (call: GraphCall, id: string) =>
  graphError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
    call.clientRequestId,
  );

export function collection<T>(base: string, path: string, value: T[]): FakeReply {
  return { status: 200, body: { '@odata.context': `${base}/v1.0/$metadata#${path}`, value } };
}

interface Access {
  allowed(roles: string[]): boolean;
  active(id: string): FakeUserRecord | undefined;
  denied: FakeReply;
}

/** The read routes; undefined when the call is none of them. */
export function handleDirectoryReads(
  directory: FakeDirectory,
  base: string,
  call: GraphCall,
  route: string,
  { allowed, active, denied }: Access,
): FakeReply | undefined {
  const parts = call.path.split('/').filter(Boolean);
  if (route === 'GET /groups') {
    if (!allowed(DIRECTORY_ROLES.groups)) return denied;
    return collection(
      base,
      'groups',
      directory.groups.map(({ memberIds: _members, ...group }) => group),
    );
  }
  // /groups/{id}/members/microsoft.graph.user and /directoryRoles/{id}/members/microsoft.graph.user
  if (
    call.method === 'GET' &&
    parts[2] === 'members' &&
    (parts[0] === 'groups' || parts[0] === 'directoryRoles')
  ) {
    if (!allowed(parts[0] === 'groups' ? DIRECTORY_ROLES.groups : DIRECTORY_ROLES.roles)) return denied;
    const owner = (parts[0] === 'groups' ? directory.groups : directory.roles).find(
      (item) => item.id === parts[1],
    );
    if (!owner) return notFound(call, parts[1]);
    return collection(
      base,
      'directoryObjects',
      owner.memberIds
        .filter((id) => active(id))
        .map((id) => ({ '@odata.type': '#microsoft.graph.user', id })),
    );
  }
  if (route === 'GET /directoryRoles') {
    if (!allowed(DIRECTORY_ROLES.roles)) return denied;
    return collection(
      base,
      'directoryRoles',
      directory.roles.map(({ memberIds: _members, ...role }) => role),
    );
  }
  if (route === 'GET /auditLogs/signIns') {
    if (!allowed(DIRECTORY_ROLES.signIns)) return denied;
    if (!directory.premium) return nonPremium(call);
    const since = /^createdDateTime ge (.+)$/.exec(call.query.get('$filter') ?? '')?.[1];
    return collection(
      base,
      'auditLogs/signIns',
      directory.signIns.filter((signIn) => !since || (signIn.createdDateTime ?? '') >= since),
    );
  }
  return undefined;
}

/** Graph's refusal of sign-in data (signIns, signInActivity) to a tenant without Entra ID P1 or P2. */
export function nonPremium(call: GraphCall): FakeReply {
  return graphError(
    403,
    'Authentication_RequestFromNonPremiumTenantOrB2CTenant',
    "Neither tenant is B2C or tenant doesn't have premium license",
    call.clientRequestId,
  );
}

/** POST /invitations: a guest user made (or found, for a resend) and the invitation answered. */
export function invite(
  state: GraphFakeState,
  tenant: FakeTenant,
  directory: FakeDirectory,
  call: GraphCall,
): FakeReply {
  const body = call.body as Invitation;
  if (!body.invitedUserEmailAddress || !body.inviteRedirectUrl)
    return graphError(
      400,
      'BadRequest',
      'The invitedUserEmailAddress and inviteRedirectUrl properties are required.',
      call.clientRequestId,
    );
  const email = body.invitedUserEmailAddress.toLowerCase();
  const initial = tenant.domains.find((domain) => domain.endsWith('.onmicrosoft.com')) ?? tenant.domains[0];
  const existing = tenant.users.find(
    (record) => !record.deleted && record.user.userType === 'Guest' && record.user.mail === email,
  );
  const guest =
    existing?.user ??
    state.putUser(tenant, {
      id: randomUUID(),
      displayName: body.invitedUserDisplayName ?? email,
      userPrincipalName: `${email.replace('@', '_')}#EXT#@${initial}`,
      mail: email,
      userType: 'Guest',
      accountEnabled: true,
      creationType: 'Invitation',
      externalUserState: 'PendingAcceptance',
      createdDateTime: new Date().toISOString(),
    });
  const invitation: Invitation = {
    id: randomUUID(),
    invitedUserEmailAddress: email,
    invitedUserDisplayName: body.invitedUserDisplayName ?? null,
    inviteRedirectUrl: body.inviteRedirectUrl,
    inviteRedeemUrl: `https://login.microsoftonline.com/redeem?rd=${randomUUID()}`,
    sendInvitationMessage: body.sendInvitationMessage ?? false,
    invitedUserMessageInfo: body.invitedUserMessageInfo ?? null,
    status: 'PendingAcceptance',
    invitedUser: { id: guest.id },
  };
  directory.invitations.push(invitation);
  return { status: 201, body: invitation };
}
