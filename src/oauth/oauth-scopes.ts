import { Permission } from '../core/permissions.js';
import { MemberRole } from '../members/member.entity.js';

/**
 * Every scope a client may ask for (SPEC 5.2 and 5.3), with what the consent page tells the member.
 * A scope is a Permission: an access token's permissions are its scopes (write implies read).
 */
export const SCOPE_DESCRIPTIONS: Record<Permission, string> = {
  [Permission.READ_TENANTS]:
    'View your tenants and their security, devices, backup, compliance, mail and information barriers',
  [Permission.WRITE_TENANTS]:
    'Change tenants and their feature areas (sync, alerts, devices, backups...), including deletions there',
  [Permission.READ_USERS]: 'View users, guests, contacts and deleted users of your tenants',
  [Permission.WRITE_USERS]: 'Create, change and delete users, guests and contacts of your tenants',
  [Permission.READ_LICENSES]: 'View the licenses of your tenants and who holds them',
  [Permission.WRITE_LICENSES]: 'Assign and remove licenses',
  [Permission.MSP_READ]: 'View the provider portal dashboard across all your tenants',
  [Permission.ADMIN]:
    'Full administrative access: everything above, plus API keys, webhooks, integrations, members and OAuth clients',
};

/** Canonical order: the order above. */
export const KNOWN_SCOPES = Object.keys(SCOPE_DESCRIPTIONS) as Permission[];

export function isKnownScope(scope: string): scope is Permission {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, scope);
}

/** Roles that may grant `admin`; a plain member may grant every other scope. */
const ROLES_GRANTING_ADMIN: ReadonlySet<MemberRole> = new Set([MemberRole.OWNER, MemberRole.ADMIN]);

export function roleMayGrant(role: MemberRole, scope: Permission): boolean {
  return scope !== Permission.ADMIN || ROLES_GRANTING_ADMIN.has(role);
}

/** Requested scopes without repeats, in canonical order; null when one is unknown or none is asked. */
export function normalizeScopes(requested: readonly string[] | undefined): Permission[] | null {
  if (!requested || requested.length === 0) return null;
  if (!requested.every(isKnownScope)) return null;
  const asked = new Set(requested);
  return KNOWN_SCOPES.filter((scope) => asked.has(scope));
}
