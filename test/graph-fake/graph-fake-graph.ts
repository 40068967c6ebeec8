import { randomUUID } from 'node:crypto';
import type { Organization, PublicErrorResponse, User } from '@microsoft/microsoft-graph-types';
import { handleAreas } from './graph-fake-areas.js';
import { handleBackup } from './graph-fake-backup.js';
import { handleDevices } from './graph-fake-devices.js';
import { fakeDirectory, handleDirectory } from './graph-fake-directory.js';
import { handleEnrollment } from './graph-fake-enrollment.js';
import type { FakeReply } from './graph-fake-login.js';
import { handleSecurity } from './graph-fake-security.js';
import type { FakeTenant, GraphFakeState, IssuedToken } from './graph-fake-state.js';

export interface GraphCall {
  method: string;
  /** After /v1.0, without the query: `/users/delta`. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
  clientRequestId: string | undefined;
  /** The `Prefer` header (`include-unknown-enum-members` for Graph's evolvable enums). */
  prefer?: string;
}

/** Graph's error body (learn.microsoft.com, "Microsoft Graph error responses and resource types"). */
export function graphError(
  status: number,
  code: string,
  message: string,
  clientRequestId: string = randomUUID(),
  headers: Record<string, string> = {},
): FakeReply {
  const body: PublicErrorResponse & { error: { innerError: Record<string, string> } } = {
    error: {
      code,
      message,
      innerError: {
        date: new Date().toISOString().replace(/\.\d+Z$/, ''),
        'request-id': randomUUID(),
        'client-request-id': clientRequestId,
      },
    },
  };
  return { status, headers, body };
}

/** Application permissions that allow each read (Graph's permission reference, least privileged first). */
const READ_ROLES = {
  organization: [
    'Organization.Read.All',
    'Organization.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  customers: ['DelegatedAdminRelationship.Read.All', 'DelegatedAdminRelationship.ReadWrite.All'],
  users: ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  skus: [
    'LicenseAssignment.Read.All',
    'LicenseAssignment.ReadWrite.All',
    'Organization.Read.All',
    'Directory.Read.All',
  ],
};

interface PageState {
  /** Offset of the page's first item. */
  o: number;
  /** Delta: changes after this sequence number (0: everything). */
  s?: number;
  /** Delta: the sequence number the final deltaLink will carry. */
  u?: number;
  sel?: string;
  top?: number;
}

const encode = (state: PageState) => Buffer.from(JSON.stringify(state)).toString('base64url');
function decode(token: string): PageState | null {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as PageState;
  } catch {
    return null;
  }
}

function project<T extends object>(item: T, select: string | undefined): Partial<T> {
  if (!select) return item;
  const fields = new Set(['id', ...select.split(',').map((field) => field.trim())]);
  // Annotations (`@removed`, `manager@delta`) go with the item whatever is selected.
  return Object.fromEntries(
    Object.entries(item).filter(([key]) => fields.has(key) || key.includes('@')),
  ) as Partial<T>;
}

/** A page of `items` with Graph's `@odata.nextLink` when more follow. */
function page<T extends object>(
  graphBase: string,
  path: string,
  items: T[],
  state: PageState,
  fallbackSize: number,
): Record<string, unknown> {
  const size = Math.min(state.top ?? fallbackSize, 999);
  const slice = items.slice(state.o, state.o + size).map((item) => project(item, state.sel));
  const more = state.o + size < items.length;
  return {
    '@odata.context': `${graphBase}/v1.0/$metadata#${path.slice(1)}`,
    value: slice,
    ...(more
      ? {
          '@odata.nextLink': `${graphBase}/v1.0${path}?$skiptoken=${encode({ ...state, o: state.o + size })}`,
        }
      : {}),
  };
}

function listState(query: URLSearchParams): PageState | 'bad' {
  const skip = query.get('$skiptoken');
  if (skip) return decode(skip) ?? 'bad';
  const top = query.get('$top');
  return { o: 0, sel: query.get('$select') ?? undefined, top: top ? Number(top) : undefined };
}

/**
 * With `manager` selected, a delta item carries its manager as `manager@delta` (Graph's delta of a
 * relationship): in a first round whenever selected, in a round from a link only when the manager changed
 * since (a removed manager as `{id, "@removed"}`), as Graph gives a relationship's changes only.
 */
function withManager(tenant: FakeTenant, user: User, round: PageState): object {
  if (!round.sel?.split(',').includes('manager')) return user;
  const directory = fakeDirectory(tenant);
  const id = user.id ?? '';
  const managerId = directory.managers.get(id);
  const change = directory.managerChanges.get(id);
  if ((round.s ?? 0) > 0 && !(change && change.at > (round.s ?? 0))) return user;
  const removed =
    !managerId && change?.removedId && (round.s ?? 0) > 0
      ? [{ '@odata.type': '#microsoft.graph.user', id: change.removedId, '@removed': { reason: 'deleted' } }]
      : [];
  return {
    ...user,
    'manager@delta': managerId ? [{ '@odata.type': '#microsoft.graph.user', id: managerId }] : removed,
  };
}

/**
 * GET /users/delta: the first round returns every user, later rounds (from a deltaLink) what changed since:
 * changed users with the properties first selected (the deltaLink keeps the $select), soft-deleted ones as
 * `@removed: changed`, purged ones as `@removed: deleted`; an expired link answers 410 syncStateNotFound.
 */
function usersDelta(state: GraphFakeState, tenant: FakeTenant, base: string, call: GraphCall): FakeReply {
  const deltaToken = call.query.get('$deltatoken');
  const skip = call.query.get('$skiptoken');
  let round: PageState | null;
  if (deltaToken) {
    const from = decode(deltaToken);
    if (!from || !Number.isFinite(from.s) || (from.s ?? 0) < tenant.deltaValidFrom)
      return graphError(
        410,
        'syncStateNotFound',
        'The sync state generation is not found. The delta token is expired and data must be synchronized again.',
        call.clientRequestId,
        { location: `${base}/v1.0/users/delta` },
      );
    round = { o: 0, s: from.s, u: state.currentSequence, sel: from.sel };
  } else if (skip) {
    round = decode(skip);
    if (!round) return graphError(400, 'BadRequest', 'The skip token is not valid.', call.clientRequestId);
  } else {
    round = { o: 0, s: 0, u: state.currentSequence, sel: call.query.get('$select') ?? undefined };
  }
  const since = round.s ?? 0;
  const until = round.u ?? Infinity;
  const inRound = (changedAt: number) => changedAt > since && changedAt <= until;
  const changed: object[] = tenant.users
    .filter((record) => inRound(record.changedAt))
    .filter((record) => since > 0 || !record.deleted)
    .map((record) =>
      record.deleted
        ? { id: record.user.id, '@removed': { reason: 'changed' } }
        : withManager(tenant, record.user, round),
    );
  if (since > 0)
    for (const purged of tenant.purged)
      if (inRound(purged.changedAt)) changed.push({ id: purged.id, '@removed': { reason: 'deleted' } });
  const body = page(base, '/users/delta', changed, round, state.pageSize);
  if (!body['@odata.nextLink'])
    body['@odata.deltaLink'] =
      `${base}/v1.0/users/delta?$deltatoken=${encode({ o: 0, s: round.u, sel: round.sel })}`;
  return { status: 200, body };
}

/**
 * Graph v1.0 as the fake serves it, for the tenant of the call's token: organization, delegatedAdminCustomers,
 * users, users/delta, subscribedSkus and JSON $batch. Every answer has the shape Microsoft documents.
 */
export function handleGraph(state: GraphFakeState, base: string, call: GraphCall): FakeReply {
  const bearer = call.authorization?.replace(/^Bearer /, '') ?? '';
  const token: IssuedToken | undefined = state.tokens.get(bearer);
  if (!token)
    return graphError(
      401,
      'InvalidAuthenticationToken',
      'Access token is empty or not valid.',
      call.clientRequestId,
    );
  if (token.expiresAt <= Date.now())
    return graphError(
      401,
      'InvalidAuthenticationToken',
      'Lifetime validation failed, the token is expired.',
      call.clientRequestId,
    );
  // The $batch endpoint checks the token, and each request of the batch is then authorized on its own: a
  // withdrawn consent's token is refused per item (401 inside a 200 batch, as Graph answers it:
  // microsoftgraph/msgraph-sdk-dotnet#2660), not for the batch.
  if (call.method === 'POST' && call.path === '/$batch') return batch(state, base, call);
  const tenant = state.tenants.get(token.tenantId)!;
  // A consent withdrawn (revoked, or the app removed from the tenant) takes the tokens issued under it along:
  // Graph refuses them before their lifetime ends, and Entra ID issues no new one (graph-fake-login.ts).
  const consent = tenant.consents.get(token.clientId);
  if (consent === undefined || consent === 'consent-missing')
    return graphError(
      401,
      'InvalidAuthenticationToken',
      'Access token validation failure. The application is no longer consented in this tenant.',
      call.clientRequestId,
    );
  const allowed = (roles: string[]) => roles.some((role) => token.roles.includes(role));
  const denied = () =>
    graphError(
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation.',
      call.clientRequestId,
    );
  const route = `${call.method} ${call.path.replace(/\/microsoft\.graph\.delta$/, '/delta')}`;
  const areaReply = handleAreas(state, tenant, token, base, call) ?? handleEnrollment(tenant, token, call);
  if (areaReply) return areaReply;
  const backupReply = handleBackup(state, tenant, token, base, call);
  if (backupReply) return backupReply;
  const securityReply = handleSecurity(state, tenant, token, base, call);
  if (securityReply) return securityReply;
  const devicesReply = handleDevices(state, tenant, token, base, call);
  if (devicesReply) return devicesReply;
  const directoryReply = handleDirectory(state, base, call, token, tenant);
  if (directoryReply) return directoryReply;
  if (call.method !== 'GET')
    return graphError(
      405,
      'Request_BadRequest',
      `The fake does not serve ${call.method} ${call.path}.`,
      call.clientRequestId,
    );
  const list = listState(call.query);
  if (list === 'bad')
    return graphError(400, 'BadRequest', 'The skip token is not valid.', call.clientRequestId);
  switch (route) {
    case 'GET /organization': {
      if (!allowed(READ_ROLES.organization)) return denied();
      const organization: Organization = {
        id: tenant.id,
        displayName: tenant.displayName,
        verifiedDomains: tenant.domains.map((name, index) => ({
          name,
          isDefault: index === 0,
          isInitial: name.endsWith('.onmicrosoft.com'),
          type: 'Managed',
          capabilities: 'Email, OfficeCommunicationsOnline',
        })),
      };
      return { status: 200, body: page(base, '/organization', [organization], list, state.pageSize) };
    }
    case 'GET /tenantRelationships/delegatedAdminCustomers':
      if (!allowed(READ_ROLES.customers)) return denied();
      return {
        status: 200,
        body: page(
          base,
          '/tenantRelationships/delegatedAdminCustomers',
          tenant.customers,
          list,
          state.pageSize,
        ),
      };
    case 'GET /users': {
      if (!allowed(READ_ROLES.users)) return denied();
      const users: User[] = tenant.users.filter((record) => !record.deleted).map((record) => record.user);
      return { status: 200, body: page(base, '/users', users, list, state.pageSize) };
    }
    case 'GET /users/delta':
      if (!allowed(READ_ROLES.users)) return denied();
      return usersDelta(state, tenant, base, call);
    case 'GET /subscribedSkus':
      if (!allowed(READ_ROLES.skus)) return denied();
      // Graph does not page subscribedSkus.
      return {
        status: 200,
        body: { '@odata.context': `${base}/v1.0/$metadata#subscribedSkus`, value: tenant.skus },
      };
    default:
      return graphError(
        400,
        'BadRequest',
        `Resource not found for the segment '${call.path.split('/')[1] ?? ''}'.`,
        call.clientRequestId,
      );
  }
}

interface BatchItem {
  id: string;
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function batch(state: GraphFakeState, base: string, call: GraphCall): FakeReply {
  const requests = (call.body as { requests?: BatchItem[] } | undefined)?.requests ?? [];
  if (requests.length === 0 || requests.length > 20)
    return graphError(400, 'BadRequest', 'A batch holds 1 to 20 requests.', call.clientRequestId);
  const responses = requests.map((request) => {
    const url = new URL(request.url.replace(/^\/?/, '/'), 'https://batch.invalid');
    const reply = handleGraph(state, base, {
      ...call,
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: request.body,
    });
    return {
      id: request.id,
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
      body: reply.body,
    };
  });
  return { status: 200, body: { responses } };
}
