import { Permission } from '../core/permissions.js';
import { EVENT_KINDS, WEBHOOK_ONLY_KINDS, type EventKind } from '../core/events/event-kinds.js';

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
