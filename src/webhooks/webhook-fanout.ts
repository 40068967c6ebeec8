import type { EventSeverity } from '../core/events/domain-event.entity.js';
import type { OutboxSubscriber } from '../core/events/event-fanout.js';
import { eventMatches, type EventPayload } from '../core/events/event-filter.js';
import { QUEUE_DELIVERIES_SQL } from './webhook-delivery.queue.js';

interface WebhookSelectionRow {
  id: string;
  events: string[];
  tenantIds: string[];
  minSeverity: EventSeverity | null;
}

/** The selections of the scope's enabled webhooks (organization id, environment), as one JSON array. */
const ENABLED_WEBHOOKS = `
  select coalesce(json_agg(json_build_object('id', w.id, 'events', w.events,
            'tenantIds', w.filter_tenant_ids, 'minSeverity', w.filter_min_severity)), '[]'::json)
    from webhooks w
   where w.organization_id = ? and w.environment = ? and w.enabled`;

/**
 * Webhooks' part of an event's fan-out (src/core/events/event-fanout.ts), inside the transaction that records the
 * event: the scope's enabled webhooks are read in the statement that NOTIFYs the event, and one delivery per
 * matching webhook (eventMatches: kinds with wildcards, tenant ids, minimum severity) is written with its first
 * attempt queued. The deliveries and their jobs commit with the change or not at all, so nothing is lost between
 * commit and delivery, and no further job stands in between. One statement when a webhook matches, none
 * otherwise. A delivery that exists already (the same event fanned out twice) is not written again.
 */
export const webhookFanOut: OutboxSubscriber<WebhookSelectionRow[]> = {
  name: 'webhooks',
  read: (scope) => ({ sql: ENABLED_WEBHOOKS, params: [scope.organizationId, scope.environment] }),
  async onEvent(em, scope, event, clock, webhooks) {
    const payload = event.payload as unknown as EventPayload;
    const matching = webhooks
      .filter((webhook) => eventMatches(payload, webhook))
      .map((webhook) => webhook.id);
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
  },
};
