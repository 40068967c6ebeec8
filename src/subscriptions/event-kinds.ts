import { Permission } from '../core/permissions.js';

/**
 * The event catalog of DECISIONS "Events". Subscription fields are generated from this list, so the
 * schema cannot drift from it; kinds whose features do not exist yet are declared all the same.
 */
export const EVENT_KINDS = [
  'tenant.synced',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.restored',
  'user.purged',
  'license.assigned',
  'license.removed',
  'alert.created',
  'alert.updated',
  'device.isolated',
  'device.released',
  'device.scan_completed',
  'restore.completed',
  'restore.failed',
  'connector.status_changed',
  'restricted_user.unblocked',
  'guest.invited',
  'recommendation.applied',
  'security.risky_signin',
  'webhook.test',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

/** `webhook.test` is a ping addressed to one webhook, not news about the organization: subscribers never see it. */
export const WEBHOOK_ONLY_KINDS: ReadonlySet<string> = new Set<string>(['webhook.test']);

export const SUBSCRIBABLE_EVENT_KINDS: readonly EventKind[] = EVENT_KINDS.filter(
  (kind) => !WEBHOOK_ONLY_KINDS.has(kind),
);

/** `device.scan_completed` → `deviceScanCompleted`. */
export function subscriptionFieldName(kind: string): string {
  return kind
    .split(/[._]/)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
}

/** Identity families (DECISIONS: read:users covers users, guests, contacts, deleted users). */
const USER_FAMILY = ['user.', 'guest.', 'restricted_user.'];

/**
 * The read permission an event's subject needs: the same one a query of that subject needs.
 * Tenant feature areas (security, devices, backup, alerts, ...) fall under read:tenants (DECISIONS).
 */
export function readPermissionOfKind(kind: string): Permission {
  if (USER_FAMILY.some((prefix) => kind.startsWith(prefix))) return Permission.READ_USERS;
  if (kind.startsWith('license.')) return Permission.READ_LICENSES;
  return Permission.READ_TENANTS;
}
