import type {
  ConditionalAccessPolicy,
  IdentitySecurityDefaultsEnforcementPolicy,
} from '@microsoft/microsoft-graph-types';
import type { CloudControlApplyOutcome } from '../security-posture.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { unsupportedError } from './graph-capabilities.js';

/**
 * Applying security controls ("Fix now") on Graph v1.0, for the recommendations Graph can change:
 *
 * - mfa-admin-roles: a conditional-access policy of ours (found by its display name, so a repeated apply
 *   creates it once) requiring MFA of the admin roles Microsoft's template "Require MFA for administrators"
 *   names (Policy.ReadWrite.ConditionalAccess + Policy.Read.All);
 * - mfa-all-users and block-legacy-authentication: security defaults (`isEnabled: true`), which require MFA
 *   registration of every user, MFA when needed, and block legacy authentication
 *   (Policy.ReadWrite.SecurityDefaults).
 *
 * A dry run changes nothing, except that the conditional-access policy is created (or left) in report-only
 * state (`enabledForReportingButNotEnforced`): Entra ID then logs what it would have done, the preview the
 * cloud itself offers. Every other control answers Unsupported (`securityControlApplyOther`).
 */
export const GRAPH_APPLIED_CONTROLS: Readonly<Record<string, 'conditionalAccess' | 'securityDefaults'>> = {
  'mfa-admin-roles': 'conditionalAccess',
  'mfa-all-users': 'securityDefaults',
  'block-legacy-authentication': 'securityDefaults',
};

/** Our policy's name in the tenant: how a repeated apply finds it. */
export const ADMIN_MFA_POLICY_NAME = 'MSP platform: require MFA for admin roles';

/**
 * Role template ids of Microsoft's "Require MFA for administrators" template; each id checked against the
 * "Microsoft Entra built-in roles" reference (entra-docs permissions-reference.md, Template ID column).
 */
export const ADMIN_ROLE_TEMPLATES = [
  '62e90394-69f5-4237-9190-012177145e10', // Global Administrator
  '194ae4cb-b126-40b2-bd5b-6091b380977d', // Security Administrator
  'f28a1f50-f6e7-4571-818b-6a12f2af6b6c', // SharePoint Administrator
  '29232cdf-9323-42fd-ade2-1d097af3e4de', // Exchange Administrator
  'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9', // Conditional Access Administrator
  '729827e3-9c14-49f7-bb1b-9608f156bbb8', // Helpdesk Administrator
  'b0f54661-2d74-4c50-afa3-1ec803f12efe', // Billing Administrator
  'fe930be7-5e62-47db-91af-98c3a49a38b1', // User Administrator
  'c4e39bd9-1100-46d3-8c65-fb160da0071f', // Authentication Administrator
  '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3', // Application Administrator
  '158c047a-c907-4556-b7ef-446551a6b5f7', // Cloud Application Administrator
  '966707d0-3269-4727-9be2-8c3a10f19b9d', // Password Administrator
  '7be44c8a-adaf-4e2a-84d6-ab2649e08a13', // Privileged Authentication Administrator
  'e8611ab8-c189-46e8-94e1-60213ab1f814', // Privileged Role Administrator
];

const SECURITY_DEFAULTS = '/policies/identitySecurityDefaultsEnforcementPolicy';
const CA_POLICIES = '/identity/conditionalAccess/policies';

type PolicyState = NonNullable<ConditionalAccessPolicy['state']>;

function adminMfaPolicy(state: PolicyState): ConditionalAccessPolicy {
  return {
    displayName: ADMIN_MFA_POLICY_NAME,
    state,
    conditions: {
      users: { includeRoles: ADMIN_ROLE_TEMPLATES },
      applications: { includeApplications: ['All'] },
      clientAppTypes: ['all'],
    },
    grantControls: { operator: 'OR', builtInControls: ['mfa'] },
  };
}

async function applyAdminMfa(graph: GraphTenantClient, dryRun: boolean): Promise<CloudControlApplyOutcome> {
  // Graph cannot filter policies by name on every tenant: the list is short, read whole.
  const policies = await graph.all<ConditionalAccessPolicy>(CA_POLICIES);
  const ours = policies.find((policy) => policy.displayName === ADMIN_MFA_POLICY_NAME);
  if (ours?.state === 'enabled') return 'already compliant';
  const state: PolicyState = dryRun ? 'enabledForReportingButNotEnforced' : 'enabled';
  if (!ours) await graph.post(CA_POLICIES, adminMfaPolicy(state));
  else if (!dryRun) await graph.patch(`${CA_POLICIES}/${encodeURIComponent(ours.id ?? '')}`, { state });
  return 'applied';
}

async function applySecurityDefaults(
  graph: GraphTenantClient,
  dryRun: boolean,
): Promise<CloudControlApplyOutcome> {
  const current = await graph.get<IdentitySecurityDefaultsEnforcementPolicy>(SECURITY_DEFAULTS);
  if (current.isEnabled) return 'already compliant';
  if (!dryRun) await graph.patch(SECURITY_DEFAULTS, { isEnabled: true });
  return 'applied';
}

/**
 * Applies (or, `dryRun`, previews) one control; Unsupported for a control Graph cannot change. Graph keeps
 * no request key: a run resumed after a crash between the call and its save reads the control met and
 * records 'already compliant' (the tenant's state is right either way).
 */
export async function applyControlOnGraph(
  graph: GraphTenantClient,
  controlId: string,
  dryRun: boolean,
): Promise<CloudControlApplyOutcome> {
  const how = GRAPH_APPLIED_CONTROLS[controlId];
  if (how === 'conditionalAccess') return applyAdminMfa(graph, dryRun);
  if (how === 'securityDefaults') return applySecurityDefaults(graph, dryRun);
  throw unsupportedError('securityControlApplyOther');
}
