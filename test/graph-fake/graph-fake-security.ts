import { randomUUID } from 'node:crypto';
import type {
  SecureScore,
  SecureScoreControlProfile,
  SecurityNamespace,
} from '@microsoft/microsoft-graph-types';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { handlePolicies } from './graph-fake-policies.js';
import { tenantSlot, type FakeTenant, type GraphFakeState, type IssuedToken } from './graph-fake-state.js';

/**
 * Graph v1.0's security API as the fake serves it (learn.microsoft.com, "List alerts_v2", "Update alert",
 * "List secureScores", "List secureScoreControlProfiles"): `GET /security/alerts_v2` in pages (`$top`,
 * `@odata.nextLink` with `$skip`), `GET` and `PATCH /security/alerts_v2/{id}` (the documented writable
 * properties only; answers the alert), `POST /security/alerts_v2/{id}/comments` ("Create comment for alert"), the daily secure scores newest first and the control profiles.
 */
type Alert = SecurityNamespace.Alert;

export interface FakeSecurity {
  alerts: Alert[];
  /** One a day, newest first (as Graph lists them). */
  secureScores: SecureScore[];
  controlProfiles: SecureScoreControlProfile[];
}

const securityStates = tenantSlot<FakeSecurity>('security');

export function fakeSecurity(tenant: FakeTenant): FakeSecurity {
  let security = securityStates.get(tenant);
  if (!security) {
    security = { alerts: [], secureScores: [], controlProfiles: [] };
    securityStates.set(tenant, security);
  }
  return security;
}

/** An alert shaped like Graph's (`@odata.type` on evidence as Graph sends it). */
export function fakeAlert(fields: Partial<Alert> = {}): Alert {
  const created = new Date(Date.UTC(2026, 10, 20, 8, 0, 0)).toISOString();
  return {
    id: `da${randomUUID().replace(/-/g, '')}`,
    providerAlertId: randomUUID(),
    title: 'Suspicious PowerShell command line',
    description: 'A suspicious PowerShell activity was observed on the machine.',
    severity: 'medium',
    status: 'new',
    classification: null,
    determination: null,
    serviceSource: 'microsoftDefenderForEndpoint',
    detectionSource: 'microsoftDefenderForEndpoint',
    category: 'Execution',
    assignedTo: null,
    createdDateTime: created,
    lastUpdateDateTime: created,
    firstActivityDateTime: created,
    lastActivityDateTime: created,
    resolvedDateTime: null,
    comments: [],
    evidence: [],
    ...fields,
  };
}

const ROLES = {
  read: ['SecurityAlert.Read.All', 'SecurityAlert.ReadWrite.All'],
  write: ['SecurityAlert.ReadWrite.All'],
  secureScore: ['SecurityEvents.Read.All', 'SecurityEvents.ReadWrite.All'],
};

/** The properties "Update alert" documents as writable, and the values Graph accepts for each enum. */
const WRITABLE: Record<string, readonly string[] | null> = {
  assignedTo: null,
  status: ['unknown', 'new', 'inProgress', 'resolved'],
  classification: ['unknown', 'falsePositive', 'truePositive', 'informationalExpectedActivity'],
  determination: [
    'unknown',
    'apt',
    'malware',
    'securityPersonnel',
    'securityTesting',
    'unwantedSoftware',
    'other',
    'multiStagedAttack',
    'compromisedAccount',
    'phishing',
    'maliciousUserActivity',
    'notMalicious',
    'notEnoughDataToValidate',
    'confirmedActivity',
    'lineOfBusinessApplication',
  ],
};

/**
 * Graph's evolvable enums: members added after `unknownFutureValue` are sent as `unknownFutureValue` unless
 * the request says `Prefer: include-unknown-enum-members` (learn.microsoft.com, "Best practices: evolvable
 * enums").
 */
const EVOLVED_SOURCES: ReadonlySet<string> = new Set([
  'microsoftDefenderForCloud',
  'microsoftSentinel',
  'microsoftInsiderRiskManagement',
  'microsoftThreatIntelligence',
]);

function asSent(alert: Alert, call: GraphCall): Alert {
  if (
    call.prefer?.includes('include-unknown-enum-members') ||
    !EVOLVED_SOURCES.has(alert.serviceSource ?? '')
  )
    return alert;
  return { ...alert, serviceSource: 'unknownFutureValue' };
}

/** The next page's link: the request's own `$filter` with the next `$skip` (URL-encoded, as Graph's are). */
function nextLink(base: string, path: string, call: GraphCall, top: number, skip: number): string {
  const filter = call.query.get('$filter');
  const filterPart = filter ? `$filter=${encodeURIComponent(filter)}&` : '';
  return `${base}/v1.0${path}?${filterPart}$top=${top}&$skip=${skip}`;
}

/**
 * `$filter` clauses joined by `and`: `lastUpdateDateTime ge <instant>` and `serviceSource eq '<source>'`, the
 * ones the fake understands (400 for any other, as Graph answers a filter it cannot apply).
 */
function filtered(alerts: Alert[], call: GraphCall): Alert[] | FakeReply {
  const filter = call.query.get('$filter');
  if (!filter) return alerts;
  const tests: Array<(alert: Alert) => boolean> = [];
  for (const clause of filter.split(' and ')) {
    const since = Date.parse(/^lastUpdateDateTime ge (\S+)$/.exec(clause)?.[1] ?? '');
    const source = /^serviceSource eq '(\w+)'$/.exec(clause)?.[1];
    if (!Number.isNaN(since)) tests.push((alert) => Date.parse(alert.lastUpdateDateTime ?? '') >= since);
    else if (source) tests.push((alert) => alert.serviceSource === source);
    else return graphError(400, 'BadRequest', `Invalid filter clause: ${filter}`, call.clientRequestId);
  }
  return alerts.filter((alert) => tests.every((test) => test(alert)));
}

/** A page of `items` at `$skip`, `$top` of them (the fake's page size without one), with its nextLink. */
function pageOf(
  items: object[],
  path: string,
  state: GraphFakeState,
  base: string,
  call: GraphCall,
): FakeReply {
  const skip = Number(call.query.get('$skip') ?? 0);
  const top = Number(call.query.get('$top') ?? state.pageSize);
  const more = skip + top < items.length;
  return {
    status: 200,
    body: {
      '@odata.context': `${base}/v1.0/$metadata#${path.slice(1)}`,
      value: items.slice(skip, skip + top),
      ...(more ? { '@odata.nextLink': nextLink(base, path, call, top, skip + top) } : {}),
    },
  };
}

/** GET /security/secureScores and /security/secureScoreControlProfiles (SecurityEvents.Read.All). */
function handleSecureScore(
  state: GraphFakeState,
  tenant: FakeTenant,
  token: IssuedToken,
  base: string,
  call: GraphCall,
): FakeReply | undefined {
  const lists = {
    '/security/secureScores': fakeSecurity(tenant).secureScores,
    '/security/secureScoreControlProfiles': fakeSecurity(tenant).controlProfiles,
  };
  const path = call.path as keyof typeof lists;
  if (!(path in lists)) return undefined;
  if (!ROLES.secureScore.some((role) => token.roles.includes(role)))
    return graphError(
      403,
      'Forbidden',
      'Insufficient privileges to complete the operation.',
      call.clientRequestId,
    );
  if (call.method !== 'GET')
    return graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);
  return pageOf(lists[path], path, state, base, call);
}

function updateAlert(alert: Alert, call: GraphCall): FakeReply {
  const patch = (call.body ?? {}) as Record<string, unknown>;
  for (const [property, value] of Object.entries(patch)) {
    const allowed = WRITABLE[property];
    if (allowed === undefined)
      return graphError(400, 'BadRequest', `Property '${property}' cannot be updated.`, call.clientRequestId);
    if (allowed && !allowed.includes(String(value)))
      return graphError(
        400,
        'BadRequest',
        `The value '${String(value)}' is not valid for '${property}'.`,
        call.clientRequestId,
      );
  }
  const now = new Date().toISOString();
  Object.assign(alert, patch, { lastUpdateDateTime: now });
  if (patch.status !== undefined) alert.resolvedDateTime = alert.status === 'resolved' ? now : null;
  return {
    status: 200,
    body: { '@odata.context': '$metadata#security/alerts_v2/$entity', ...asSent(alert, call) },
  };
}

const notServed = (call: GraphCall) =>
  graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);

/**
 * "Create comment for alert": the body is an alertComment (`@odata.type`, `comment`); Graph names the app as
 * the writer and answers 200 with the alert's whole comment collection.
 */
function addComment(state: GraphFakeState, token: IssuedToken, alert: Alert, call: GraphCall): FakeReply {
  const body = (call.body ?? {}) as { comment?: unknown };
  if (typeof body.comment !== 'string' || body.comment.length === 0)
    return graphError(400, 'BadRequest', "The property 'comment' is required.", call.clientRequestId);
  const now = new Date().toISOString();
  const comments = [...(alert.comments ?? [])];
  comments.push({
    comment: body.comment,
    createdByDisplayName: state.apps.get(token.clientId)?.displayName ?? token.clientId,
    createdDateTime: now,
  });
  Object.assign(alert, { comments, lastUpdateDateTime: now });
  return {
    status: 200,
    body: {
      '@odata.context': '$metadata#Collection(microsoft.graph.security.alertComment)',
      value: comments.map((comment) => ({
        '@odata.type': '#microsoft.graph.security.alertComment',
        ...comment,
      })),
    },
  };
}

/** The reply to a security request, or undefined when the call is not one (handleGraph goes on). */
export function handleSecurity(
  state: GraphFakeState,
  tenant: FakeTenant,
  token: IssuedToken,
  base: string,
  call: GraphCall,
): FakeReply | undefined {
  const match = /^\/security\/alerts_v2(?:\/([^/]+)(\/comments)?)?$/.exec(call.path);
  if (!match)
    return handleSecureScore(state, tenant, token, base, call) ?? handlePolicies(tenant, token, call);
  const roles = call.method === 'GET' ? ROLES.read : ROLES.write;
  if (!roles.some((role) => token.roles.includes(role)))
    return graphError(
      403,
      'Forbidden',
      'Missing application roles. API required roles: SecurityAlert.Read.All, SecurityAlert.ReadWrite.All.',
      call.clientRequestId,
    );
  const id = match[1] ? decodeURIComponent(match[1]) : undefined;
  if (id === undefined) {
    if (call.method !== 'GET')
      return graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);
    const alerts = filtered(fakeSecurity(tenant).alerts, call);
    if (!Array.isArray(alerts)) return alerts;
    const sent = alerts.map((alert) => asSent(alert, call));
    return pageOf(sent, '/security/alerts_v2', state, base, call);
  }
  const alert = fakeSecurity(tenant).alerts.find((candidate) => candidate.id === id);
  if (!alert)
    return graphError(404, 'NotFound', `Alert with id '${id}' was not found.`, call.clientRequestId);
  if (match[2]) return call.method === 'POST' ? addComment(state, token, alert, call) : notServed(call);
  if (call.method === 'GET') return { status: 200, body: asSent(alert, call) };
  if (call.method === 'PATCH') return updateAlert(alert, call);
  return graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);
}
