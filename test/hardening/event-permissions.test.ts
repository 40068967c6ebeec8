import { EVENT_KINDS, type EventKind } from '../../src/core/events/event-kinds.js';
import { readPermissionOfKind } from '../../src/subscriptions/event-kinds.js';

/**
 * Who may read each event kind, written by hand from DECISIONS "OAuth scopes": the same permission as a
 * query of the event's subject. Restricted users are Exchange, a tenant feature area: read:tenants, as
 * their queries need (issue #9 item 5 found the event asking read:users).
 */
const EXPECTED: Record<EventKind, string> = {
  'tenant.synced': 'read:tenants',
  'user.created': 'read:users',
  'user.updated': 'read:users',
  'user.deleted': 'read:users',
  'user.restored': 'read:users',
  'user.purged': 'read:users',
  'license.assigned': 'read:licenses',
  'license.removed': 'read:licenses',
  'alert.created': 'read:tenants',
  'alert.updated': 'read:tenants',
  'device.isolated': 'read:tenants',
  'device.released': 'read:tenants',
  'device.scan_completed': 'read:tenants',
  'restore.completed': 'read:tenants',
  'restore.failed': 'read:tenants',
  'connector.status_changed': 'read:tenants',
  'restricted_user.unblocked': 'read:tenants',
  'guest.invited': 'read:users',
  'recommendation.applied': 'read:tenants',
  'security.risky_signin': 'read:tenants',
  'webhook.test': 'read:tenants',
  'webhook.disabled': 'read:tenants',
};

describe('event read permissions come from the one permission table (issue #9 item 5)', () => {
  it('matches the hand-written expectation for every kind of the catalog', () => {
    const actual = Object.fromEntries(EVENT_KINDS.map((kind) => [kind, readPermissionOfKind(kind)]));
    expect(actual).toEqual(EXPECTED);
  });
});
