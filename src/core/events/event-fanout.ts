import type { EntityManager } from '@mikro-orm/postgresql';
import { QUEUE_DELIVERIES_SQL } from '../../webhooks/webhook-delivery.queue.js';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import type { DomainEvent, EventSeverity } from './domain-event.entity.js';
import { eventMatches, type EventPayload } from './event-filter.js';
import { WEBHOOK_ONLY_KINDS } from './event-kinds.js';

export const EVENTS_CHANNEL = 'domain_events';

interface WebhookSelectionRow {
  id: string;
  events: string[];
  tenantIds: string[];
  minSeverity: EventSeverity | null;
}

/**
 * Tells every server process about the event (NOTIFY, delivered by PostgreSQL on commit: subscriptions) and
 * reads the selections of the scope's enabled webhooks, in one statement.
 */
const NOTIFY_AND_READ_WEBHOOKS = `
  select pg_notify(?, ?) as notified,
    (select coalesce(json_agg(json_build_object('id', w.id, 'events', w.events,
              'tenantIds', w.filter_tenant_ids, 'minSeverity', w.filter_min_severity)), '[]'::json)
       from webhooks w
      where w.organization_id = ? and w.environment = ? and w.enabled) as webhooks`;

/**
 * The fan-out of one outbox event, inside the transaction that records it: subscribers are notified on
 * commit, and one delivery per matching webhook (eventMatches: kinds with wildcards, tenant ids, minimum
 * severity) is written with its first attempt queued. The deliveries and their jobs commit with the change
 * or not at all, so nothing is lost between commit and delivery, and no further job stands in between.
 * Two statements when a webhook matches, one otherwise.
 *
 * Kinds addressed to one webhook (WEBHOOK_ONLY_KINDS: `webhook.test`) are not news about the organization:
 * they reach neither other webhooks (a `*` webhook would match them) nor subscribers, even if emitted through
 * recordEvent. Their sender writes the event row and that one webhook's delivery itself (WebhookService.sendTest).
 */
export async function fanOutEvent(
  em: EntityManager,
  scope: Scope,
  event: DomainEvent,
  clock: Clock,
): Promise<number> {
  if (WEBHOOK_ONLY_KINDS.has(event.kind)) return 0;
  const [{ webhooks }] = await em.execute<Array<{ webhooks: WebhookSelectionRow[] }>>(
    NOTIFY_AND_READ_WEBHOOKS,
    [EVENTS_CHANNEL, event.id, scope.organizationId, scope.environment],
  );
  const payload = event.payload as unknown as EventPayload;
  const matching = webhooks.filter((webhook) => eventMatches(payload, webhook)).map((webhook) => webhook.id);
  if (matching.length === 0) return 0;
  await em.execute(QUEUE_DELIVERIES_SQL, [
    scope.organizationId,
    scope.environment,
    event.id,
    event.kind,
    clock.now(),
    JSON.stringify(matching),
  ]);
  return matching.length;
}
