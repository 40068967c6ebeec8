import DataLoader from 'dataloader';
import { DomainEvent } from '../core/events/domain-event.entity.js';
import type { EventPayload } from '../core/events/event-filter.js';
import { findLeanIn } from '../core/lean-read.js';
import { defineLoader, groupByKey } from '../core/loaders.js';
import { WebhookAttempt } from './webhook-delivery.entity.js';

/** Delivery id → its attempts, first first: one statement for a whole page of deliveries. */
export const deliveryAttemptsLoader = defineLoader<string, WebhookAttempt[]>(
  'webhooks.deliveryAttempts',
  (ctx) =>
    new DataLoader(async (deliveryIds) => {
      const rows = await findLeanIn(ctx, WebhookAttempt, 'deliveryId', deliveryIds, { attemptNumber: 'asc' });
      return groupByKey(deliveryIds, rows, (row) => row.deliveryId);
    }),
);

/** Event id → the body its deliveries carry (the outbox payload). */
export const eventPayloadLoader = defineLoader<string, EventPayload | null>(
  'webhooks.eventPayload',
  (ctx) =>
    new DataLoader(async (eventIds) => {
      const rows = await findLeanIn(ctx, DomainEvent, 'id', eventIds);
      const byId = new Map(rows.map((row) => [row.id, row.payload as unknown as EventPayload]));
      return eventIds.map((id) => byId.get(id) ?? null);
    }),
);
