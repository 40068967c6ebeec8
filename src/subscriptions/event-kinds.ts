import { readRequirementOfEvent, type Permission } from '../core/permissions.js';
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

/**
 * The read permission an event's subject needs: the same one a query of that subject needs, from the one
 * permission table (core/permissions.ts FEATURES and EVENT_FEATURE).
 */
export function readPermissionOfKind(kind: string): Permission {
  return readRequirementOfEvent(kind).permission;
}
