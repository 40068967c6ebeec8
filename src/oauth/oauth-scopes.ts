import { Permission } from '../core/permissions.js';
import { SCOPE_DESCRIPTIONS } from '../core/scope-descriptions.js';
import { MemberRole } from '../members/member.entity.js';

export { SCOPE_DESCRIPTIONS };

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
