import { randomUUID } from 'node:crypto';
import type { ConditionalAccessPolicy } from '@microsoft/microsoft-graph-types';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type IssuedToken } from './graph-fake-state.js';

/**
 * Entra ID's policies as the fake serves them (learn.microsoft.com, "Update
 * identitySecurityDefaultsEnforcementPolicy", "List policies" and "Create conditionalAccessPolicy"): security
 * defaults (GET, PATCH `isEnabled`), conditional-access policies (GET the list, POST, PATCH `/{id}`). As in
 * Entra ID, the two exclude each other: no conditional-access policy is created or enabled while security
 * defaults are on, and security defaults are not switched on while a policy is enabled (400 either way).
 */
export interface FakePolicies {
  securityDefaults: boolean;
  conditionalAccess: ConditionalAccessPolicy[];
}

const policyStates = tenantSlot<FakePolicies>('policies');

export function fakePolicies(tenant: FakeTenant): FakePolicies {
  let policies = policyStates.get(tenant);
  if (!policies) {
    policies = { securityDefaults: false, conditionalAccess: [] };
    policyStates.set(tenant, policies);
  }
  return policies;
}

const READ = ['Policy.Read.All'];
const WRITE_DEFAULTS = ['Policy.ReadWrite.SecurityDefaults'];
/** Creating or changing a conditional-access policy needs both (Microsoft's documented pair). */
const WRITE_CA = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All'];
const STATES = ['enabled', 'disabled', 'enabledForReportingButNotEnforced'];

const denied = (call: GraphCall) =>
  graphError(403, 'AccessDenied', 'You cannot perform the requested operation.', call.clientRequestId);
const refused = (call: GraphCall, message: string) =>
  graphError(400, 'BadRequest', message, call.clientRequestId);

function securityDefaults(policies: FakePolicies, token: IssuedToken, call: GraphCall): FakeReply {
  const body = {
    '@odata.context': '$metadata#policies/identitySecurityDefaultsEnforcementPolicy/$entity',
    id: '00000000-0000-0000-0000-000000000005',
    displayName: 'Security Defaults',
    description: 'Security defaults is a set of basic identity security mechanisms recommended by Microsoft.',
    isEnabled: policies.securityDefaults,
  };
  if (call.method === 'GET') {
    if (![...READ, ...WRITE_DEFAULTS].some((role) => token.roles.includes(role))) return denied(call);
    return { status: 200, body };
  }
  if (call.method !== 'PATCH') return refused(call, `The fake does not serve ${call.method} ${call.path}.`);
  if (!WRITE_DEFAULTS.some((role) => token.roles.includes(role))) return denied(call);
  const { isEnabled } = (call.body ?? {}) as { isEnabled?: unknown };
  if (typeof isEnabled !== 'boolean') return refused(call, "Property 'isEnabled' must be a boolean.");
  if (isEnabled && policies.conditionalAccess.some((policy) => policy.state === 'enabled'))
    return refused(
      call,
      'Security defaults cannot be enabled while Conditional Access policies are enabled.',
    );
  policies.securityDefaults = isEnabled;
  return { status: 204, body: undefined };
}

function writeCa(policies: FakePolicies, call: GraphCall, id: string | undefined): FakeReply {
  const input = (call.body ?? {}) as ConditionalAccessPolicy;
  if (input.state !== undefined && !STATES.includes(input.state ?? ''))
    return refused(call, `The value '${String(input.state)}' is not valid for 'state'.`);
  if (input.state === 'enabled' || input.state === 'enabledForReportingButNotEnforced')
    if (policies.securityDefaults)
      return refused(
        call,
        'Security Defaults is enabled in the tenant. Please disable Security Defaults to enable Conditional Access policies.',
      );
  if (id === undefined) {
    if (!input.displayName || !input.conditions || !input.state)
      return refused(call, 'displayName, conditions and state are required.');
    const now = new Date().toISOString();
    const created = { ...input, id: randomUUID(), createdDateTime: now, modifiedDateTime: null };
    policies.conditionalAccess.push(created);
    return {
      status: 201,
      body: { '@odata.context': '$metadata#identity/conditionalAccess/policies/$entity', ...created },
    };
  }
  const policy = policies.conditionalAccess.find((candidate) => candidate.id === id);
  if (!policy) return graphError(404, 'NotFound', `Policy '${id}' was not found.`, call.clientRequestId);
  Object.assign(policy, input, { modifiedDateTime: new Date().toISOString() });
  return { status: 204, body: undefined };
}

/** The reply to a policy request, or undefined when the call is not one. */
export function handlePolicies(
  tenant: FakeTenant,
  token: IssuedToken,
  call: GraphCall,
): FakeReply | undefined {
  const policies = fakePolicies(tenant);
  if (call.path === '/policies/identitySecurityDefaultsEnforcementPolicy')
    return securityDefaults(policies, token, call);
  const match = /^\/identity\/conditionalAccess\/policies(?:\/([^/]+))?$/.exec(call.path);
  if (!match) return undefined;
  const id = match[1] ? decodeURIComponent(match[1]) : undefined;
  if (call.method === 'GET') {
    if (!READ.some((role) => token.roles.includes(role))) return denied(call);
    if (id === undefined)
      return {
        status: 200,
        body: {
          '@odata.context': '$metadata#identity/conditionalAccess/policies',
          value: policies.conditionalAccess,
        },
      };
    const policy = policies.conditionalAccess.find((candidate) => candidate.id === id);
    return policy
      ? { status: 200, body: policy }
      : graphError(404, 'NotFound', `Policy '${id}' was not found.`);
  }
  if (!WRITE_CA.every((role) => token.roles.includes(role))) return denied(call);
  if ((call.method === 'POST' && id === undefined) || (call.method === 'PATCH' && id !== undefined))
    return writeCa(policies, call, id);
  return refused(call, `The fake does not serve ${call.method} ${call.path}.`);
}
