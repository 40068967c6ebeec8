import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import type { DomainEvent } from './domain-event.entity.js';
import { WEBHOOK_ONLY_KINDS } from './event-kinds.js';

export const EVENTS_CHANNEL = 'domain_events';

/**
 * A feature that acts on every recorded event inside the transaction that records it (webhooks: one delivery
 * per matching endpoint, src/webhooks/webhook-fanout.ts). Features declare theirs in their FeatureModule
 * (`outboxSubscribers`); the process passes them all in its AppDeps (`outboxSubscribers`), so core names none.
 */
export interface OutboxSubscriber<Read = unknown> {
  /** Names the subscriber in what fanOutEvent returns. */
  readonly name: string;
  /**
   * What the subscriber needs to know about the event's scope, as one scalar SQL subquery (`?` placeholders) and
   * its parameters: it is evaluated in the statement that NOTIFYs the event, so an event no subscriber acts on
   * costs that one statement.
   */
  read?(scope: Scope, event: DomainEvent): { sql: string; params: unknown[] };
  /**
   * Acts on the event with the event's own EntityManager, in its transaction: what it writes commits with the
   * change or not at all. `read` is the value of its subquery. Returns how many rows it wrote (deliveries).
   * What it reads there is what the caller flushed before recording, not its pending ORM changes (record-event.ts
   * writes the event row by itself).
   */
  onEvent(em: EntityManager, scope: Scope, event: DomainEvent, clock: Clock, read: Read): Promise<number>;
}

/** The event row's own INSERT (`?` placeholders) and its parameters, for the fan-out to run first (record-event.ts). */
export interface EventInsert {
  sql: string;
  params: unknown[];
}

/** What the fan-out needs from the process (AppDeps has it). */
export interface OutboxDeps {
  clock: Clock;
  outboxSubscribers: readonly OutboxSubscriber[];
}

/**
 * The fan-out of one outbox event, inside the transaction that records it: subscriptions are notified on commit
 * (NOTIFY on EVENTS_CHANNEL) and every outbox subscriber acts on the event, in the order given. One statement
 * (the NOTIFY, with every subscriber's read) plus what the subscribers write: for webhooks, a second statement
 * when a webhook matches (the deliveries and their jobs), none otherwise.
 *
 * Kinds addressed to one webhook (WEBHOOK_ONLY_KINDS: `webhook.test`) are not news about the organization:
 * they reach neither subscribers nor any outbox subscriber (a `*` webhook would match them), even if emitted
 * through recordEvent. Their sender writes the event row and that one webhook's delivery itself
 * (WebhookService.sendTest). Returns what each subscriber wrote, by name.
 *
 * `recording`: the event row's INSERT, not yet run, made the first part of the NOTIFY's statement (recordEvent
 * in a transaction), so recording and announcing an event is one round trip.
 */
export async function fanOutEvent(
  em: EntityManager,
  scope: Scope,
  event: DomainEvent,
  deps: OutboxDeps,
  recording?: EventInsert,
): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  if (WEBHOOK_ONLY_KINDS.has(event.kind)) {
    if (recording) await em.execute(recording.sql, recording.params);
    return written;
  }
  const reads = deps.outboxSubscribers.map((subscriber) => subscriber.read?.(scope, event));
  const columns = reads.map((read, index) => (read ? `, (${read.sql}) as "read_${index}"` : '')).join('');
  // A data-modifying WITH runs exactly once whether or not the select reads it; the subscribers' reads do not
  // need the new row (their later statements, the deliveries' foreign key, see it).
  const [row] = await em.execute<Array<Record<string, unknown>>>(
    `${recording ? `with recorded as (${recording.sql}) ` : ''}select pg_notify(?, ?) as notified${columns}`,
    [...(recording?.params ?? []), EVENTS_CHANNEL, event.id, ...reads.flatMap((read) => read?.params ?? [])],
  );
  for (const [index, subscriber] of deps.outboxSubscribers.entries()) {
    written[subscriber.name] = await subscriber.onEvent(em, scope, event, deps.clock, row[`read_${index}`]);
  }
  return written;
}
