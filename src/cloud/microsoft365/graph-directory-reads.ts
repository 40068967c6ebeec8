import type { DirectoryObject, DirectoryRole, Group, SignIn, User } from '@microsoft/microsoft-graph-types';
import { CloudError, isCloudError } from '../cloud-error.js';
import type { CloudPages } from '../pages.js';
import type { CloudGroupRecord, CloudRiskLevel, CloudSignInRecord } from '../provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { MICROSOFT365 } from './graph-errors.js';

interface MemberPage {
  value?: DirectoryObject[];
  '@odata.nextLink'?: string;
}

/**
 * The ids of the members of each object (`/{collection}/{id}/members`), one `$batch` per 20 objects
 * instead of a call each; a member list longer than one page follows its nextLink.
 */
async function membersOf(
  graph: GraphTenantClient,
  collection: 'groups' | 'directoryRoles',
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  if (ids.length === 0) return members;
  const results = await graph.batch(
    ids.map((id) => ({
      id,
      method: 'GET' as const,
      url: `/${collection}/${id}/members/microsoft.graph.user?$select=id&$top=999`,
    })),
  );
  for (const result of results) {
    if (!result.ok) throw result.error;
    const page = result.body as MemberPage;
    const found = (page.value ?? []).flatMap((member) => (member.id ? [member.id] : []));
    if (page['@odata.nextLink'])
      for await (const more of graph.pages<DirectoryObject>(page['@odata.nextLink']))
        found.push(...more.value.flatMap((member) => (member.id ? [member.id] : [])));
    members.set(result.id, found);
  }
  return members;
}

/**
 * The directory roles each user holds, by user id (display names): `GET /directoryRoles` (the roles
 * activated in the tenant) and their members, so that privileged accounts are known live.
 */
export async function directoryRolesByUser(graph: GraphTenantClient): Promise<Map<string, string[]>> {
  const roles = await graph.all<DirectoryRole>('/directoryRoles', { query: { $select: 'id,displayName' } });
  const members = await membersOf(
    graph,
    'directoryRoles',
    roles.flatMap((role) => (role.id ? [role.id] : [])),
  );
  const byUser = new Map<string, string[]>();
  for (const role of roles) {
    for (const userId of members.get(role.id ?? '') ?? []) {
      const held = byUser.get(userId) ?? [];
      held.push(role.displayName ?? role.id ?? '');
      byUser.set(userId, held);
    }
  }
  return byUser;
}

/** `GET /groups`, a page at a time, each page's members in one `$batch`. */
export async function* graphGroups(graph: GraphTenantClient): CloudPages<CloudGroupRecord> {
  for await (const page of graph.pages<Group>('/groups', { query: { $select: 'id,displayName' } })) {
    const groups = page.value.filter((group) => group.id);
    const members = await membersOf(
      graph,
      'groups',
      groups.map((group) => group.id!),
    );
    yield groups.map((group) => ({
      externalId: group.id!,
      displayName: group.displayName ?? '',
      memberExternalIds: members.get(group.id!) ?? [],
    }));
  }
}

/** Graph's error when the tenant has no Entra ID P1/P2 licence for sign-in logs. */
const NON_PREMIUM = 'Authentication_RequestFromNonPremiumTenantOrB2CTenant';

function riskOf(level: string | null | undefined): CloudRiskLevel {
  return level === 'low' || level === 'medium' || level === 'high' ? level : 'none';
}

function signInOf(signIn: SignIn): CloudSignInRecord {
  const where = [signIn.location?.city, signIn.location?.countryOrRegion].filter(Boolean).join(', ');
  return {
    id: signIn.id ?? '',
    userPrincipalName: signIn.userPrincipalName ?? '',
    riskLevel: riskOf(signIn.riskLevelAggregated),
    location: where,
    ipAddress: signIn.ipAddress ?? '',
    createdAt: signIn.createdDateTime ?? '',
  };
}

/**
 * `GET /auditLogs/signIns` since `since` (AuditLog.Read.All). A tenant without Entra ID P1 is refused sign-in
 * logs by Graph: that is CloudError Unsupported with Graph's message, never an empty list that would pass
 * for "nobody signed in".
 */
export async function* graphSignIns(
  graph: GraphTenantClient,
  since: Date | null,
): CloudPages<CloudSignInRecord> {
  const query: Record<string, string> = since ? { $filter: `createdDateTime ge ${since.toISOString()}` } : {};
  try {
    for await (const page of graph.pages<SignIn>('/auditLogs/signIns', { query }))
      yield page.value.map(signInOf);
  } catch (error) {
    if (isCloudError(error, 'Forbidden') && error.cloudCode === NON_PREMIUM)
      throw new CloudError(
        'Unsupported',
        `Microsoft Graph gives sign-in logs only to tenants with Microsoft Entra ID P1 or P2: ${error.message} ` +
          `(capability "signIns", provider ${MICROSOFT365})`,
        { provider: MICROSOFT365, capability: 'signIns', cloudCode: NON_PREMIUM, cause: error },
      );
    throw error;
  }
}

/** What `lastSignInsByUser` found: each user's latest sign-in, or why Graph gave none. */
export type GraphLastSignIns =
  { available: true; byUser: Map<string, string> } | { available: false; reason: string };

/**
 * Each user's latest sign-in (interactive or not), by user id: `GET /users?$select=id,signInActivity`
 * (AuditLog.Read.All; Graph returns `signInActivity` neither in a delta query nor without Entra ID P1).
 * Graph's refusal (no P1: `Authentication_RequestFromNonPremiumTenantOrB2CTenant`; the permission not
 * granted: 403) is `available: false` with its reason: the sign-in times are unknown, never "no sign-in".
 */
export async function lastSignInsByUser(graph: GraphTenantClient): Promise<GraphLastSignIns> {
  const latest = new Map<string, string>();
  try {
    for await (const page of graph.pages<User>('/users', {
      query: { $select: 'id,signInActivity', $top: 999 },
    })) {
      for (const user of page.value) {
        const activity = user.signInActivity;
        const times = [activity?.lastSignInDateTime, activity?.lastNonInteractiveSignInDateTime].filter(
          (time): time is string => typeof time === 'string' && time !== '',
        );
        if (user.id && times.length) latest.set(user.id, times.sort().at(-1)!);
      }
    }
  } catch (error) {
    if (!isCloudError(error, 'Forbidden')) throw error;
    const reason =
      error.cloudCode === NON_PREMIUM
        ? 'Microsoft Graph gives sign-in activity only to tenants with Microsoft Entra ID P1 or P2'
        : 'Microsoft Graph refused sign-in activity: the app needs AuditLog.Read.All, consented in this tenant';
    return { available: false, reason: `${reason} (${error.cloudCode ?? 'Forbidden'})` };
  }
  return { available: true, byUser: latest };
}
