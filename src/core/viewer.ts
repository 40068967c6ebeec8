import { ForbiddenError } from './errors.js';
import { Permission, PermissionLevel } from './permissions.js';
import type { Scope } from './scope.js';

export type CredentialKind = 'api_key' | 'access_token';

/** Who is calling: resolved once per request from the Bearer credential. */
export interface Viewer extends Scope {
  organizationSlug: string;
  rateLimitPerMinute: number;
  credentialKind: CredentialKind;
  credentialId: string;
  /** API keys only: the key's level. */
  level?: PermissionLevel;
  permissions: ReadonlySet<Permission>;
}

export interface PermissionRequirement {
  /**
   * Deletions and other irreversible actions. API keys need the Admin level for them (DECISIONS);
   * an access token needs the family's write scope (or `admin`).
   */
  destructive?: boolean;
}

export function hasPermission(
  viewer: Viewer,
  required: Permission,
  requirement: PermissionRequirement = {},
): boolean {
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
