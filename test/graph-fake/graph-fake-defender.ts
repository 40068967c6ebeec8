import { randomUUID } from 'node:crypto';
import type {
  DefenderActionStatus,
  DefenderMachine,
  DefenderMachineAction,
} from '../../src/cloud/microsoft365/defender-types.js';
import type { DefenderRecommendation } from '../../src/cloud/microsoft365/defender-recommendations.js';
import type { IncomingMessage } from 'node:http';
import { defaultCode, defaultMessage, retryAfter, type Fault, type RecordedRequest } from './graph-fake.js';
import { advance, postAction } from './graph-fake-defender-actions.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type GraphFakeState } from './graph-fake-state.js';

/**
 * Microsoft Defender for Endpoint's API on its own HTTPS origin, as the fake serves it (learn.microsoft.com,
 * "List machines", "Isolate machine", "Release device from isolation", "Run antivirus scan", "List
 * MachineActions", "Get machineAction"): tokens of the Defender scope from the fake's Entra ID (their roles are
 * the Machine.* ones consented), `/api/machines` and `/api/machineactions` with `$filter` (`x eq 'v'` clauses
 * joined by `and`/`or`) and `@odata.nextLink` pages, and machine actions that move Pending → InProgress → their
 * outcome as they are read. Errors have Defender's body, `{ error: { code, message, target } }`.
 */
export interface FakeMachineAction extends DefenderMachineAction {
  /** What the action ends as once it has been read twice (the fake's Defender moves it on each read). */
  outcome: DefenderActionStatus;
}

/** A security recommendation with the machines it is open on (its `machineReferences`). */
export interface FakeRecommendation extends DefenderRecommendation {
  machineIds: string[];
}

export interface FakeDefender {
  /** False: Defender for Endpoint was never set up in the tenant (Entra ID refuses its scope, AADSTS500011). */
  provisioned: boolean;
  machines: DefenderMachine[];
  recommendations: FakeRecommendation[];
  actions: FakeMachineAction[];
  /** The outcome given to the next actions posted (Succeeded unless a test says Failed, TimeOut…). */
  nextOutcome: DefenderActionStatus;
}

const defenders = tenantSlot<FakeDefender>('defender');

export function fakeDefender(tenant: FakeTenant): FakeDefender {
  let defender = defenders.get(tenant);
  if (!defender) {
    defender = {
      provisioned: true,
      machines: [],
      recommendations: [],
      actions: [],
      nextOutcome: 'Succeeded',
    };
    defenders.set(tenant, defender);
  }
  return defender;
}

/** A machine shaped like Defender's (onboarded, active, medium risk), joined to Entra ID by `aadDeviceId`. */
export function fakeMachine(fields: Partial<DefenderMachine> = {}): DefenderMachine {
  return {
    id: randomUUID().replace(/-/g, '').padEnd(40, '0'),
    computerDnsName: 'desktop-4f2k9qh.fabrikam.com',
    aadDeviceId: randomUUID(),
    osPlatform: 'Windows11',
    lastSeen: '2026-11-26T08:05:00Z',
    healthStatus: 'Active',
    onboardingStatus: 'Onboarded',
    riskScore: 'Medium',
    exposureLevel: 'Medium',
    ...fields,
  };
}

/** Defender's token scope and the application roles (of the WindowsDefenderATP app) its tokens carry. */
export const DEFENDER_SCOPE = 'https://api.securitycenter.microsoft.com/.default';
export const isDefenderRole = (role: string): boolean =>
  /^(Machine|SecurityRecommendation|Vulnerability)\./.test(role);

/** A recommendation shaped like Defender's ("Recommendation methods and properties"), open on `machineIds`. */
export function fakeRecommendation(
  fields: Partial<FakeRecommendation> & Pick<FakeRecommendation, 'id' | 'machineIds'>,
): FakeRecommendation {
  return {
    recommendationName: 'Update Google Chrome',
    productName: 'chrome',
    status: 'Active',
    exposedMachinesCount: fields.machineIds.length,
    ...fields,
  };
}

const ROLES = {
  read: ['Machine.Read.All', 'Machine.ReadWrite.All'],
  recommendations: ['SecurityRecommendation.Read.All', 'Vulnerability.Read.All'],
};

export function defenderError(status: number, code: string, message: string): FakeReply {
  return { status, body: { error: { code, message, target: randomUUID() } } };
}

/** `$filter` of the form Defender documents: `field eq 'value'` clauses with `and`, alternatives with `or`. */
function matches(filter: string | null, item: object): boolean | 'bad' {
  if (!filter) return true;
  const record = item as Record<string, unknown>;
  const alternatives = filter
    .split(/\s+or\s+/i)
    .map((part) =>
      part
        .split(/\s+and\s+/i)
        .map((clause) => /^\s*\(?\s*(\w+)\s+eq\s+'((?:[^']|'')*)'\s*\)?\s*$/i.exec(clause)),
    );
  if (alternatives.some((clauses) => clauses.some((clause) => clause === null))) return 'bad';
  return alternatives.some((clauses) =>
    clauses.every((clause) => String(record[clause![1]] ?? '') === clause![2].replace(/''/g, "'")),
  );
}

function list<T extends object>(
  state: GraphFakeState,
  base: string,
  path: string,
  items: T[],
  query: URLSearchParams,
): FakeReply {
  const chosen: T[] = [];
  for (const item of items) {
    const match = matches(query.get('$filter'), item);
    if (match === 'bad') return defenderError(400, 'InvalidRequestBody', 'Invalid filter clause');
    if (match) chosen.push(item);
  }
  const skip = Number(query.get('$skip') ?? 0);
  const top = Number(query.get('$top') ?? state.pageSize);
  const next = [...query.entries(), ['$skip', String(skip + top)], ['$top', String(top)]]
    .filter(([name], index, all) => all.findLastIndex(([other]) => other === name) === index)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return {
    status: 200,
    body: {
      '@odata.context': `${base}/api/$metadata#${path.slice(5)}`,
      value: chosen.slice(skip, skip + top).map(sent),
      ...(skip + top < chosen.length ? { '@odata.nextLink': `${base}${path}?${next}` } : {}),
    },
  };
}

/** An item as Defender sends it (without the fake's own bookkeeping). */
export function sent<T extends object>(item: T): T {
  const {
    outcome: _outcome,
    machineIds: _machineIds,
    ...rest
  } = item as T & {
    outcome?: unknown;
    machineIds?: unknown;
  };
  return rest as T;
}

/**
 * Every request to the Defender origin (registered in graph-fake.ts): machines, machine actions,
 * recommendations and the machines each is open on.
 */
export function handleDefender(
  state: GraphFakeState,
  base: string,
  call: { method: string; path: string; query: URLSearchParams; body: unknown; authorization?: string },
): FakeReply {
  const token = state.tokens.get(call.authorization?.replace(/^Bearer /, '') ?? '');
  if (!token || token.expiresAt <= Date.now() || token.audience !== 'defender')
    return defenderError(
      401,
      'Unauthorized',
      'Authorization token is missing, expired or for another resource',
    );
  // As Graph does (graph-fake-graph.ts), a withdrawn consent takes the tokens issued under it along.
  const consent = state.tenants.get(token.tenantId)!.consents.get(token.clientId);
  if (consent === undefined || consent === 'consent-missing')
    return defenderError(401, 'Unauthorized', 'The application is no longer consented in this tenant');
  const defender = fakeDefender(state.tenants.get(token.tenantId)!);
  const path = call.path.split('/').map(decodeURIComponent);
  const readable = ROLES.read.some((role) => token.roles.includes(role));
  // ['', 'api', 'machines', id?, verb?]
  if (path[1] !== 'api') return defenderError(404, 'NotFound', `The fake does not serve ${call.path}`);
  if (path[2] === 'machines') {
    if (!readable) return defenderError(403, 'Forbidden', 'Missing application role: Machine.Read.All');
    if (path.length === 3 && call.method === 'GET')
      return list(state, base, '/api/machines', defender.machines, call.query);
    const machine = defender.machines.find((candidate) => candidate.id === path[3]);
    if (!machine) return defenderError(404, 'ResourceNotFound', `Machine ${path[3]} was not found`);
    if (path.length === 4 && call.method === 'GET') return { status: 200, body: machine };
    if (path.length === 5 && call.method === 'POST')
      return postAction(defender, machine, path[4], token, call.body);
  }
  if (path[2] === 'recommendations' && call.method === 'GET') {
    if (!ROLES.recommendations.some((role) => token.roles.includes(role)))
      return defenderError(403, 'Forbidden', 'Missing application role: SecurityRecommendation.Read.All');
    if (path.length === 3)
      return list(state, base, '/api/recommendations', defender.recommendations, call.query);
    const recommendation = defender.recommendations.find((candidate) => candidate.id === path[3]);
    if (!recommendation || path[4] !== 'machineReferences')
      return defenderError(404, 'ResourceNotFound', `Recommendation ${path[3]} was not found`);
    const references = defender.machines
      .filter((machine) => recommendation.machineIds.includes(machine.id))
      .map((machine) => ({
        id: machine.id,
        computerDnsName: machine.computerDnsName,
        osPlatform: machine.osPlatform,
        rbacGroupName: 'UnassignedGroup',
      }));
    return list(state, base, `/api/recommendations/${path[3]}/machineReferences`, references, call.query);
  }
  if (path[2] === 'machineactions' && call.method === 'GET') {
    if (!readable) return defenderError(403, 'Forbidden', 'Missing application role: Machine.Read.All');
    if (path.length === 3) return list(state, base, '/api/machineactions', defender.actions, call.query);
    const action = defender.actions.find((candidate) => candidate.id === path[3]);
    if (!action) return defenderError(404, 'ResourceNotFound', `MachineAction ${path[3]} was not found`);
    advance(action);
    return { status: 200, body: sent(action) };
  }
  return defenderError(404, 'NotFound', `The fake does not serve ${call.method} ${call.path}`);
}

/** A request to the Defender origin as graph-fake.ts received it: recorded, answered with a fault or the API. */
export function serveDefender(
  state: GraphFakeState,
  base: string,
  received: {
    record: RecordedRequest;
    parsed: URL;
    raw: string;
    request: IncomingMessage;
    fault: Fault | undefined;
  },
): FakeReply {
  const { record, parsed, raw, request, fault } = received;
  const body = raw ? (JSON.parse(raw) as unknown) : undefined;
  if (body !== undefined) record.body = body;
  const call = {
    method: record.method,
    path: parsed.pathname,
    query: parsed.searchParams,
    body,
    authorization: request.headers.authorization,
  };
  if (fault?.lostAnswer) handleDefender(state, base, call);
  if (fault && fault.status >= 400)
    return {
      status: fault.status,
      headers: retryAfter(fault),
      body: {
        error: {
          code: fault.code ?? defaultCode(fault.status),
          message: fault.message ?? defaultMessage(fault.status),
        },
      },
    };
  return handleDefender(state, base, call);
}
