import type {
  AssignedLicense,
  AutomaticRepliesSetting,
  PasswordProfile,
} from '@microsoft/microsoft-graph-types';
import { fakeDirectory } from './graph-fake-directory.js';
import { handleDrives } from './graph-fake-drives.js';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type GraphFakeState, type IssuedToken } from './graph-fake-state.js';

/**
 * What the fake keeps of a tenant beyond its directory for the licenses and user-management areas: the
 * password profile last set per user (Graph never returns the password: the fake keeps it to assert it) and
 * the mailbox settings' automatic replies. Groups and their members are the directory's (graph-fake-directory.ts).
 */
export interface FakeAreaState {
  passwords: Map<string, Required<Pick<PasswordProfile, 'password' | 'forceChangePasswordNextSignIn'>>>;
  autoReplies: Map<string, AutomaticRepliesSetting>;
}

const areaStates = tenantSlot<FakeAreaState>('areas');

export function fakeAreaState(tenant: FakeTenant): FakeAreaState {
  let areas = areaStates.get(tenant);
  if (!areas) {
    areas = { passwords: new Map(), autoReplies: new Map() };
    areaStates.set(tenant, areas);
  }
  return areas;
}

/** Application permissions allowing each write (Graph's permission reference). */
const WRITE_ROLES = {
  assignLicense: ['LicenseAssignment.ReadWrite.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  // Since 2024 app-only password changes need this one permission; User.ReadWrite.All is not enough.
  password: ['User-PasswordProfile.ReadWrite.All'],
  groupMember: ['GroupMember.ReadWrite.All', 'Group.ReadWrite.All', 'Directory.ReadWrite.All'],
  mailboxSettings: ['MailboxSettings.ReadWrite'],
  files: ['Files.ReadWrite.All', 'Sites.ReadWrite.All'],
};

/** Graph's answer to a user id the tenant does not have. */
function noSuchObject(id: string, call: GraphCall): FakeReply {
  return graphError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
    call.clientRequestId,
  );
}

const badRequest = (message: string, call: GraphCall) =>
  graphError(400, 'Request_BadRequest', message, call.clientRequestId);

interface AssignLicenseBody {
  addLicenses?: AssignedLicense[];
  removeLicenses?: string[];
}

/** POST /users/{id}/assignLicense, refusing as Graph does: unknown SKU, no usage location, no seat, not held. */
function assignLicense(state: GraphFakeState, tenant: FakeTenant, id: string, call: GraphCall): FakeReply {
  const record = tenant.users.find((candidate) => candidate.user.id === id && !candidate.deleted);
  if (!record) return noSuchObject(id, call);
  const body = (call.body ?? {}) as AssignLicenseBody;
  if (!Array.isArray(body.addLicenses) || !Array.isArray(body.removeLicenses))
    return badRequest('Invalid value specified for property addLicenses or removeLicenses.', call);
  const held = new Map((record.user.assignedLicenses ?? []).map((license) => [license.skuId, license]));
  const skuOf = (skuId: string | null | undefined) => tenant.skus.find((sku) => sku.skuId === skuId);
  for (const skuId of [...body.addLicenses.map((license) => license.skuId), ...body.removeLicenses])
    if (!skuOf(skuId))
      return badRequest(`License ${skuId} does not correspond to a valid company License.`, call);
  for (const skuId of body.removeLicenses)
    if (!held.has(skuId)) return badRequest('User does not have a corresponding license.', call);
  const added = body.addLicenses.filter((license) => !held.has(license.skuId));
  if (added.length > 0 && !record.user.usageLocation)
    return badRequest('License assignment cannot be done for user with invalid usage location.', call);
  for (const license of added) {
    const sku = skuOf(license.skuId)!;
    if ((sku.consumedUnits ?? 0) >= (sku.prepaidUnits?.enabled ?? 0))
      return badRequest(
        `License assignment failed because subscription ${sku.skuPartNumber} does not have any available licenses.`,
        call,
      );
  }
  for (const license of added) skuOf(license.skuId)!.consumedUnits! += 1;
  for (const skuId of body.removeLicenses) skuOf(skuId)!.consumedUnits! -= 1;
  for (const license of body.addLicenses)
    held.set(license.skuId, { skuId: license.skuId, disabledPlans: license.disabledPlans ?? [] });
  for (const skuId of body.removeLicenses) held.delete(skuId);
  const user = state.putUser(tenant, { id, assignedLicenses: [...held.values()] });
  return { status: 200, body: user };
}

const WEAK_PASSWORDS = /password|123456|qwerty/i;

/** PATCH /users/{id} setting passwordProfile (the fake's other user updates belong to the directory). */
function resetPassword(tenant: FakeTenant, id: string, call: GraphCall): FakeReply {
  if (!tenant.users.some((record) => record.user.id === id && !record.deleted)) return noSuchObject(id, call);
  const profile = (call.body as { passwordProfile: PasswordProfile }).passwordProfile;
  const password = profile.password ?? '';
  if (password.length < 8 || WEAK_PASSWORDS.test(password))
    return badRequest(
      'The specified password does not comply with password complexity requirements. Please provide a different password.',
      call,
    );
  fakeAreaState(tenant).passwords.set(id, {
    password,
    forceChangePasswordNextSignIn: profile.forceChangePasswordNextSignIn ?? false,
  });
  return { status: 204, body: undefined };
}

function removeMember(tenant: FakeTenant, groupId: string, userId: string, call: GraphCall): FakeReply {
  const group = fakeDirectory(tenant).groups.find((candidate) => candidate.id === groupId);
  if (!group?.memberIds.includes(userId))
    return graphError(
      404,
      'Request_ResourceNotFound',
      "One or more removed object references do not exist for the following modified properties: 'members'.",
      call.clientRequestId,
    );
  group.memberIds = group.memberIds.filter((id) => id !== userId);
  return { status: 204, body: undefined };
}

function mailboxSettings(tenant: FakeTenant, id: string, call: GraphCall): FakeReply {
  if (!tenant.users.some((record) => record.user.id === id && !record.deleted)) return noSuchObject(id, call);
  const setting = (call.body as { automaticRepliesSetting?: AutomaticRepliesSetting })
    .automaticRepliesSetting;
  if (!setting?.status) return badRequest('automaticRepliesSetting.status is required.', call);
  fakeAreaState(tenant).autoReplies.set(id, setting);
  return { status: 200, body: { automaticRepliesSetting: setting } };
}

/**
 * The licenses and user-management writes of Graph v1.0 (and OneDrive, graph-fake-drives.ts), for the tenant of the call's token (registered in
 * handleGraph, graph-fake-graph.ts). Undefined: not one of these routes.
 */
export function handleAreas(
  state: GraphFakeState,
  tenant: FakeTenant,
  token: IssuedToken,
  base: string,
  call: GraphCall,
): FakeReply | undefined {
  const denied = (roles: string[]) =>
    roles.some((role) => token.roles.includes(role))
      ? undefined
      : graphError(
          403,
          'Authorization_RequestDenied',
          'Insufficient privileges to complete the operation.',
          call.clientRequestId,
        );
  const path = call.path.split('/').map(decodeURIComponent);
  // ['', 'users', id, 'assignLicense'] and the like.
  if (call.method === 'POST' && path[1] === 'users' && path[3] === 'assignLicense' && path.length === 4)
    return denied(WRITE_ROLES.assignLicense) ?? assignLicense(state, tenant, path[2], call);
  if (
    call.method === 'PATCH' &&
    path[1] === 'users' &&
    path.length === 3 &&
    (call.body as { passwordProfile?: unknown } | undefined)?.passwordProfile !== undefined
  )
    return denied(WRITE_ROLES.password) ?? resetPassword(tenant, path[2], call);
  if (call.method === 'PATCH' && path[1] === 'users' && path[3] === 'mailboxSettings' && path.length === 4)
    return denied(WRITE_ROLES.mailboxSettings) ?? mailboxSettings(tenant, path[2], call);
  if (call.method === 'DELETE' && path[1] === 'groups' && path[3] === 'members' && path[5] === '$ref')
    return denied(WRITE_ROLES.groupMember) ?? removeMember(tenant, path[2], path[4], call);
  if (path[1] === 'drives' || (path[1] === 'users' && path[3] === 'drive'))
    return denied(WRITE_ROLES.files) ?? handleDrives(tenant, base, call);
  return undefined;
}
