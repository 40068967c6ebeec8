import { ForbiddenError } from './errors.js';
import { Permission, PermissionLevel, type Requirement } from './permissions.js';
import { Environment } from './environment.js';
import type { Scope } from './scope.js';

export type CredentialKind = 'api_key' | 'access_token';

/** Who is calling: resolved once per request from the Bearer credential. */
export interface Viewer extends Scope {
  organizationSlug: string;
  rateLimitPerMinute: number;
  credentialKind: CredentialKind;
  credentialId: string;
  /** Access tokens only: the member the token acts for, and the OAuth client it was issued to. */
  memberId?: string;
  oauthClientId?: string;
  /** API keys only: the key's level. */
  level?: PermissionLevel;
  permissions: ReadonlySet<Permission>;
}

/** The flags of a requirement besides its permission (see `Requirement` in core/permissions.ts). */
export type PermissionRequirement = Pick<Requirement, 'destructive' | 'liveOnly' | 'liveOnlyReason'>;

export const LIVE_AUTHORITY_MESSAGE =
  'This action changes who may sign in to both environments, so it needs live authority: a live Admin key ' +
  '(svc_sk_live_) or an owner signed in through a live OAuth client; sandbox credentials cannot do it';

export function hasPermission(
  viewer: Viewer,
  required: Permission,
  requirement: PermissionRequirement = {},
): boolean {
  if (requirement.liveOnly && viewer.environment !== Environment.LIVE) return false;
  if (viewer.permissions.has(Permission.ADMIN)) return true;
  if (requirement.destructive && viewer.credentialKind === 'api_key') return false;
  return viewer.permissions.has(required);
}

export function assertPermission(
  viewer: Viewer,
  required: Permission,
  requirement: PermissionRequirement = {},
): void {
  if (hasPermission(viewer, required, requirement)) return;
  if (requirement.liveOnly && viewer.environment !== Environment.LIVE)
    throw new ForbiddenError(requirement.liveOnlyReason ?? LIVE_AUTHORITY_MESSAGE, {
      required: 'live',
      environment: viewer.environment,
    });
  // For an API key, `admin` is exactly the Admin level: say so in the key's own terms.
  const needsAdminKey =
    viewer.credentialKind === 'api_key' && (requirement.destructive || required === Permission.ADMIN);
  throw new ForbiddenError(
    needsAdminKey
      ? 'This action needs an API key with the Admin permission level'
      : `This action needs the "${required}" permission`,
    {
      required: needsAdminKey ? PermissionLevel.ADMIN : required,
      ...(viewer.level ? { level: viewer.level } : { granted: [...viewer.permissions] }),
    },
  );
}

/**
 * The principal string the audit columns store for what this viewer does (src/actors reads it back as a readable
 * actor). An access token is recorded as its member and client, not the token: housekeeping deletes expired
 * tokens after a day, and the member must stay readable for as long as the record exists.
 */
export function principalOf(viewer: Viewer): string {
  if (viewer.credentialKind === 'access_token' && viewer.memberId)
    return `member:${viewer.memberId}:${viewer.oauthClientId ?? ''}`;
  return `${viewer.credentialKind}:${viewer.credentialId}`;
}

/**
 * Whether the viewer meets a requirement (a row of the permission table). For what a field shows rather than
 * refuses (the redacted webhook headers, an event's payload); a refusal is a declared requirement instead
 * (`@RequirePermission`, core/authorize.ts).
 */
export function meetsRequirement(viewer: Viewer, requirement: Requirement): boolean {
  return hasPermission(viewer, requirement.permission, requirement);
}

/** Refuses (403 FORBIDDEN, naming what is needed) unless the viewer meets the requirement. */
export function assertRequirement(viewer: Viewer, requirement: Requirement): void {
  assertPermission(viewer, requirement.permission, requirement);
}
