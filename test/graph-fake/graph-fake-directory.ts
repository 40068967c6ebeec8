import { randomUUID } from 'node:crypto';
import type { DirectoryRole, Group, Invitation, SignIn, User } from '@microsoft/microsoft-graph-types';
import {
  collection,
  DIRECTORY_ROLES as ROLES,
  handleDirectoryReads,
  invite,
  nonPremium,
  notFound,
} from './graph-fake-directory-reads.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type GraphFakeState, type IssuedToken } from './graph-fake-state.js';
import type { GraphCall } from './graph-fake-graph.js';
import { graphError } from './graph-fake-graph.js';

/**
 * The directory writes and reads the live provider makes (src/cloud/microsoft365/graph-users.ts), as Graph
 * v1.0 documents them: users (single, by UPN filter, create, update, manager, delete, revoke sessions), the
 * recycle bin, invitations, groups, directory roles and sign-in logs. The tenant's extra state lives here.
 */
export interface FakeDirectory {
  /** userId → managerId. */
  managers: Map<string, string>;
  /**
   * userId → when its manager last changed (the state's sequence number) and the manager removed then, if
   * any: a delta round from a link gives `manager@delta` only for these (setFakeManager records them).
   */
  managerChanges: Map<string, { at: number; removedId?: string }>;
  groups: Array<Group & { memberIds: string[] }>;
  roles: Array<DirectoryRole & { memberIds: string[] }>;
  signIns: SignIn[];
  /** Entra ID P1 or P2: without it Graph refuses sign-in logs. */
  premium: boolean;
  /** Every invitation received (POST /invitations), resends included. */
  invitations: Invitation[];
  /** Passwords set at creation (what a test may check was sent). */
  passwords: Map<string, string>;
}

const directories = tenantSlot<FakeDirectory>('directory');

export function fakeDirectory(tenant: FakeTenant): FakeDirectory {
  let directory = directories.get(tenant);
  if (!directory) {
    directory = {
      managers: new Map(),
      managerChanges: new Map(),
      groups: [],
      roles: [],
      signIns: [],
      premium: true,
      invitations: [],
      passwords: new Map(),
    };
    directories.set(tenant, directory);
  }
  return directory;
}

/** Sets (or, with null, removes) a user's manager as a change later delta rounds report. */
export function setFakeManager(
  state: GraphFakeState,
  tenant: FakeTenant,
  userId: string,
  managerId: string | null,
): void {
  const directory = fakeDirectory(tenant);
  const previous = directory.managers.get(userId);
  if (managerId === null) directory.managers.delete(userId);
  else directory.managers.set(userId, managerId);
  state.putUser(tenant, { id: userId });
  directory.managerChanges.set(userId, {
    at: state.currentSequence,
    ...(managerId === null && previous ? { removedId: previous } : {}),
  });
}

const noContent: FakeReply = { status: 204, body: undefined };

function select(user: User, query: URLSearchParams): Partial<User> {
  const fields = query.get('$select');
  if (!fields) return user;
  const wanted = new Set(['id', ...fields.split(',')]);
  return Object.fromEntries(Object.entries(user).filter(([key]) => wanted.has(key))) as Partial<User>;
}

/** The directory routes; undefined when the call is not one of them (graph-fake-graph.ts answers it). */
export function handleDirectory(
  state: GraphFakeState,
  base: string,
  call: GraphCall,
  token: IssuedToken,
  tenant: FakeTenant,
): FakeReply | undefined {
  const directory = fakeDirectory(tenant);
  const denied = graphError(
    403,
    'Authorization_RequestDenied',
    'Insufficient privileges to complete the operation.',
    call.clientRequestId,
  );
  const allowed = (roles: string[]) => roles.some((role) => token.roles.includes(role));
  const parts = call.path.split('/').filter(Boolean);
  const active = (id: string) => tenant.users.find((record) => record.user.id === id && !record.deleted);
  const binned = (id: string) => tenant.users.find((record) => record.user.id === id && record.deleted);
  // A user's id becomes {id} (not /users/delta, which graph-fake-graph.ts serves).
  const route = `${call.method} /${parts
    .map((part, index) => (index === 1 && parts[0] === 'users' && part !== 'delta' ? '{id}' : part))
    .join('/')}`;

  switch (route) {
    case 'GET /users': {
      if (call.query.get('$select')?.split(',').includes('signInActivity')) {
        if (!allowed(ROLES.signIns)) return denied;
        // Graph gives signInActivity only to tenants with Entra ID P1 or P2.
        if (!directory.premium) return nonPremium(call);
      }
      const filter = /^userPrincipalName eq '(.*)'$/.exec(call.query.get('$filter') ?? '');
      if (!filter) return undefined;
      if (!allowed(ROLES.usersRead)) return denied;
      const upn = filter[1].replace(/''/g, "'").toLowerCase();
      const found = tenant.users.filter(
        (record) => !record.deleted && record.user.userPrincipalName?.toLowerCase() === upn,
      );
      return collection(
        base,
        'users',
        found.map((record) => select(record.user, call.query)),
      );
    }
    case 'POST /users': {
      if (!allowed(ROLES.usersWrite)) return denied;
      const body = call.body as User;
      for (const field of [
        'accountEnabled',
        'displayName',
        'mailNickname',
        'userPrincipalName',
        'passwordProfile',
      ] as const)
        if (body[field] === undefined || body[field] === null)
          return graphError(
            400,
            'Request_BadRequest',
            `Invalid value specified for property '${field}' of resource 'User'.`,
            call.clientRequestId,
          );
      const upn = body.userPrincipalName!.toLowerCase();
      if (!tenant.domains.includes(upn.split('@')[1] ?? ''))
        return graphError(
          400,
          'Request_BadRequest',
          'The domain portion of the userPrincipalName property is invalid. You must use one of the verified domain names in your organization.',
          call.clientRequestId,
        );
      if (tenant.users.some((record) => record.user.userPrincipalName?.toLowerCase() === upn))
        return graphError(
          400,
          'Request_BadRequest',
          'Another object with the same value for property userPrincipalName already exists.',
          call.clientRequestId,
        );
      const { passwordProfile, ...fields } = body;
      const user = state.putUser(tenant, {
        ...fields,
        id: randomUUID(),
        userType: 'Member',
        createdDateTime: new Date().toISOString(),
        mail: null,
      });
      directory.passwords.set(user.id!, passwordProfile?.password ?? '');
      return { status: 201, body: user };
    }
    case 'GET /users/{id}': {
      if (!allowed(ROLES.usersRead)) return denied;
      const record = active(parts[1]);
      return record ? { status: 200, body: select(record.user, call.query) } : notFound(call, parts[1]);
    }
    case 'PATCH /users/{id}': {
      if (!allowed(ROLES.usersWrite)) return denied;
      const record = active(parts[1]);
      if (!record) return notFound(call, parts[1]);
      state.putUser(tenant, { ...(call.body as User), id: parts[1] });
      return noContent;
    }
    case 'DELETE /users/{id}': {
      if (!allowed(ROLES.usersWrite)) return denied;
      if (!active(parts[1])) return notFound(call, parts[1]);
      state.deleteUser(tenant, parts[1]);
      binned(parts[1])!.user.deletedDateTime = new Date().toISOString();
      directory.managers.delete(parts[1]);
      return noContent;
    }
    case 'PUT /users/{id}/manager/$ref': {
      if (!allowed(ROLES.usersWrite)) return denied;
      const managerId = /\/users\/([^/]+)$/.exec(
        (call.body as { '@odata.id'?: string })['@odata.id'] ?? '',
      )?.[1];
      if (!active(parts[1])) return notFound(call, parts[1]);
      if (!managerId || !active(managerId)) return notFound(call, managerId ?? '');
      setFakeManager(state, tenant, parts[1], managerId);
      return noContent;
    }
    case 'DELETE /users/{id}/manager/$ref': {
      if (!allowed(ROLES.usersWrite)) return denied;
      if (!active(parts[1]) || !directory.managers.has(parts[1])) return notFound(call, parts[1]);
      setFakeManager(state, tenant, parts[1], null);
      return noContent;
    }
    case 'POST /users/{id}/revokeSignInSessions':
      if (!allowed(ROLES.usersWrite)) return denied;
      if (!active(parts[1])) return notFound(call, parts[1]);
      return { status: 200, body: { '@odata.context': `${base}/v1.0/$metadata#Edm.Boolean`, value: true } };
    case 'GET /directory/deletedItems/microsoft.graph.user':
      if (!allowed(ROLES.usersRead)) return denied;
      return collection(
        base,
        'directoryObjects',
        tenant.users.filter((record) => record.deleted).map((record) => select(record.user, call.query)),
      );
    case `POST /directory/deletedItems/${parts[2]}/restore`: {
      if (!allowed(ROLES.usersWrite)) return denied;
      const record = binned(parts[2]);
      if (!record) return notFound(call, parts[2]);
      const { deletedDateTime: _deleted, ...user } = record.user;
      void _deleted;
      record.user = user;
      state.putUser(tenant, user);
      return { status: 200, body: user };
    }
    case `DELETE /directory/deletedItems/${parts[2]}`: {
      if (!allowed(ROLES.usersWrite)) return denied;
      const record = binned(parts[2]);
      if (!record) return notFound(call, parts[2]);
      state.purgeUser(tenant, parts[2]);
      return noContent;
    }
    case 'POST /invitations':
      if (!allowed(ROLES.invite)) return denied;
      return invite(state, tenant, directory, call);
    default:
      break;
  }
  return handleDirectoryReads(directory, base, call, route, { allowed, active, denied });
}
