import type { EventPayload } from '../../src/core/events/event-filter.js';
import { Environment } from '../../src/core/environment.js';
import type { Scope } from '../../src/core/scope.js';
import { EventHub, SubscriberTooSlowError } from '../../src/subscriptions/event-hub.js';
import { subscriptionFieldName, SUBSCRIBABLE_EVENT_KINDS } from '../../src/subscriptions/event-kinds.js';

const sandbox: Scope = { organizationId: 'org-1', environment: Environment.SANDBOX };
const live: Scope = { organizationId: 'org-1', environment: Environment.LIVE };

function event(id: string, kind = 'user.created'): EventPayload {
  return {
    id,
    event: kind,
    severity: 'informational',
    tenant: null,
    details: {},
    timestamp: '2026-11-01T12:00:00.000Z',
    actionUrl: 'http://app.test/events',
  };
}

describe('EventHub (one server process)', () => {
  it('delivers in order to subscribers of the same scope that accept the event', async () => {
    const hub = new EventHub();
    const users = hub.subscribe(sandbox, (e) => e.event.startsWith('user.'));
    const liveOnes = hub.subscribe(live, () => true);
    hub.publish(sandbox, event('a'));
    hub.publish(sandbox, event('b', 'license.assigned'));
    hub.publish(sandbox, event('c', 'user.deleted'));
    hub.publish(live, event('d'));
    expect((await users.next()).value.id).toBe('a');
    expect((await users.next()).value.id).toBe('c');
    expect((await liveOnes.next()).value.id).toBe('d');
  });

  it('ends a subscriber that falls too far behind with an error, after what it holds', async () => {
    const hub = new EventHub(2);
    const slow = hub.subscribe(sandbox, () => true);
    for (const id of ['a', 'b', 'c', 'd']) hub.publish(sandbox, event(id));
    expect(hub.subscriberCount).toBe(0); // detached at the overflow: nothing more is queued for it
    expect((await slow.next()).value.id).toBe('a');
    expect((await slow.next()).value.id).toBe('b');
    await expect(slow.next()).rejects.toBeInstanceOf(SubscriberTooSlowError);
    expect(await slow.next()).toEqual({ value: undefined, done: true });
  });

  it('forgets a subscriber returned before its first read, and wakes a waiting reader on close', async () => {
    const hub = new EventHub();
    const abandoned = hub.subscribe(sandbox, () => true);
    expect(hub.subscriberCount).toBe(1);
    await abandoned.return!();
    expect(hub.subscriberCount).toBe(0);

    const waiting = hub.subscribe(sandbox, () => true);
    const pending = waiting.next();
    hub.close();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(hub.subscriberCount).toBe(0);
  });
});

describe('per-kind subscription fields', () => {
  it('are named after every subscribable kind of the catalog, without clashes', () => {
    const names = SUBSCRIBABLE_EVENT_KINDS.map(subscriptionFieldName);
    expect(names).toContain('securityRiskySignin');
    expect(names).toContain('deviceScanCompleted');
    expect(names).toContain('restrictedUserUnblocked');
    expect(names).not.toContain('webhookTest');
    expect(new Set(names).size).toBe(names.length);
  });
});
