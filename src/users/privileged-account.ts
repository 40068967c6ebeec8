import { ForbiddenError, invalid } from '../core/errors.js';
import { Permission, type Requirement } from '../core/permissions.js';
import type { RequestContext } from '../core/request-context.js';
import type { ServiceContext } from '../core/service-context.js';
import { meetsRequirement, type Viewer } from '../core/viewer.js';
import { MfaStatus } from './user.enums.js';

/**
 * Privileged accounts (issue #32 item 2, docs/security-model.md "Privileged accounts"): a user holding an
 * administrator role of the customer's directory. Membership comes from the cloud (`directoryRoles` of the
 * cloud's user record, stored on the user row by the tenant sync); we never decide it ourselves.
 *
 * Taking over such an account takes over the customer's tenant, so the actions that could (password reset,
 * MFA off, offboarding, delete) need the Admin level, and so does blocking its sign-in (a Write key must not
 * lock the customer out of its break-glass account), a reset always makes the user choose a new password at
 * next sign-in, and MFA is never turned off.
 */

/**
 * The directory roles that make an account privileged: the cloud's administrator roles (every role whose
 * holder can change users, credentials, policies or billing of the tenant). Read-only roles (Global Reader,
 * Directory Readers, Reports Reader, Message Center Reader…) are not in the list.
 */
export const PRIVILEGED_DIRECTORY_ROLES: ReadonlySet<string> = new Set([
  'Global Administrator',
  'Privileged Role Administrator',
  'Privileged Authentication Administrator',
  'Authentication Administrator',
  'Authentication Policy Administrator',
  'Conditional Access Administrator',
  'Security Administrator',
  'User Administrator',
  'Helpdesk Administrator',
  'Password Administrator',
  'Groups Administrator',
  'Exchange Administrator',
  'SharePoint Administrator',
  'Teams Administrator',
  'Intune Administrator',
  'Application Administrator',
  'Cloud Application Administrator',
  'Hybrid Identity Administrator',
  'Billing Administrator',
  'License Administrator',
  'Compliance Administrator',
  'Domain Name Administrator',
  'External Identity Provider Administrator',
]);

/** Whether directory roles make an account privileged. */
export function isPrivilegedRoles(roles: readonly string[]): boolean {
  return roles.some((role) => PRIVILEGED_DIRECTORY_ROLES.has(role));
}

/**
 * What acting on a privileged account needs: `admin` — an API key of the Admin level, or an access token
 * with the `admin` scope (`write:users` alone is not enough, unlike other deletions).
 */
export const PRIVILEGED_ACCOUNT_REQUIREMENT: Requirement = { permission: Permission.ADMIN };

export type PrivilegedAction = 'reset its password' | 'offboard it' | 'delete it' | 'block its sign-in';

/** The viewer of a request context; none for the CLI and jobs, which act for the operator. */
function viewerOf(ctx: ServiceContext): Viewer | undefined {
  return 'viewer' in ctx ? (ctx as RequestContext).viewer : undefined;
}

/**
 * 403 FORBIDDEN (`details.reason` PRIVILEGED_ACCOUNT, the roles) unless the caller may act on the account.
 * Called by the services after the user is found and before anything reaches the cloud.
 */
export function assertMayActOnPrivileged(
  ctx: ServiceContext,
  user: { id: string; directoryRoles: readonly string[] },
  action: PrivilegedAction,
): void {
  if (!isPrivilegedRoles(user.directoryRoles)) return;
  const viewer = viewerOf(ctx);
  if (!viewer || meetsRequirement(viewer, PRIVILEGED_ACCOUNT_REQUIREMENT)) return;
  throw new ForbiddenError(
    `User ${user.id} holds an administrator role of the customer's directory ` +
      `(${privilegedRolesOf(user.directoryRoles).join(', ')}): to ${action} you need an API key of the ` +
      'Admin level or an access token with the admin scope',
    {
      reason: 'PRIVILEGED_ACCOUNT',
      required: 'Admin',
      directoryRoles: privilegedRolesOf(user.directoryRoles),
    },
  );
}

/** The privileged roles among `roles`. */
export function privilegedRolesOf(roles: readonly string[]): string[] {
  return roles.filter((role) => PRIVILEGED_DIRECTORY_ROLES.has(role));
}

/**
 * MFA is never turned off on a privileged account, whatever the credential: 403 FORBIDDEN (`details.reason`
 * PRIVILEGED_ACCOUNT, `details.field` mfaStatus) before anything is written.
 */
export function assertKeepsPrivilegedMfa(
  user: { id: string; directoryRoles: readonly string[] },
  mfaStatus: string | null | undefined,
): void {
  if (mfaStatus !== MfaStatus.DISABLED || !isPrivilegedRoles(user.directoryRoles)) return;
  throw new ForbiddenError(
    `User ${user.id} holds an administrator role of the customer's directory ` +
      `(${privilegedRolesOf(user.directoryRoles).join(', ')}): MFA cannot be turned off on it`,
    {
      reason: 'PRIVILEGED_ACCOUNT',
      field: 'mfaStatus',
      directoryRoles: privilegedRolesOf(user.directoryRoles),
    },
  );
}

/** A privileged account's reset always forces a new password at next sign-in: false is 400 naming the field. */
export function assertPrivilegedResetForcesChange(
  user: { directoryRoles: readonly string[] },
  forceChangeAtNextSignIn: boolean | null | undefined,
): void {
  if (forceChangeAtNextSignIn !== false || !isPrivilegedRoles(user.directoryRoles)) return;
  throw invalid([
    {
      field: 'forceChangeAtNextSignIn',
      problem:
        'must be true for an account holding an administrator role (its holder must choose a new password)',
    },
  ]);
}
