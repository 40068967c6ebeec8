import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DomainEvent } from '../core/events/domain-event.entity.js';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Webhook } from './webhook.entity.js';

export enum DeliveryStatus {
  PENDING = 'Pending',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
  CANCELLED = 'Cancelled',
}
registerEnumType(DeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description:
    'Pending (first attempt or a retry is due) → Succeeded (a 2xx) | Failed (retries exhausted, or 410) | ' +
    'Cancelled (the webhook was disabled first). Any but Pending can be re-sent.',
});

/** One event on its way to one webhook: at least once, retried on the schedule of DECISIONS. */
@ObjectType({ description: 'One event on its way to one webhook, with every attempt' })
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['webhookId', 'eventId'] })
@Index({ properties: ['webhookId', 'createdAt', 'id'] })
/** The unique key leads with webhook_id: event-side lookups (housekeeping, the cascade from events) need this. */
@Index({ properties: ['eventId'] })
// An endpoint's pending first attempts, which one job takes as a batch (webhook-endpoint-batch.ts).
@Index({
  name: 'webhook_deliveries_first_attempts_index',
  expression: `create index "webhook_deliveries_first_attempts_index" on "webhook_deliveries" ("webhook_id", "created_at") where "status" = 'Pending' and "attempt_count" = 0`,
})
export class WebhookDelivery extends ScopedEntity {
  [OptionalProps]?:
    | 'status'
    | 'attemptCount'
    | 'nextAttemptAt'
    | 'lastAttemptAt'
    | 'lastStatusCode'
    | 'lastError'
    | 'completedAt'
    | 'createdAt'
    | 'manualAttempt'
    | 'claimedBy'
    | 'claimedUntil';

  @Field(() => ID)
  @ManyToOne(() => Webhook, { mapToPk: true, fieldName: 'webhook_id', deleteRule: 'cascade' })
  webhookId!: string;

  @Field(() => ID, { description: 'The event id: the webhook-id header of every attempt' })
  @ManyToOne(() => DomainEvent, { mapToPk: true, fieldName: 'event_id', deleteRule: 'cascade' })
  eventId!: string;

  @Field({ description: 'Event kind, e.g. user.created' })
  @Property()
  event!: string;

  @Field(() => DeliveryStatus)
  @Enum({ items: () => DeliveryStatus })
  status: DeliveryStatus = DeliveryStatus.PENDING;

  @Field(() => Int)
  @Property({ type: 'integer' })
  attemptCount: number = 0;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the next retry is due (Pending only)' })
  @Property({ type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  lastStatusCode: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;

  /** The next attempt is a person's re-send of a finished delivery: if it fails, no retries follow. */
  @Property({ type: 'boolean' })
  manualAttempt: boolean = false;

  /**
   * The delivery job attempting it now (graphile-worker job id), until `claimedUntil`: no other job attempts it
   * meanwhile, and only this one records the attempt (webhook-delivery.queue.ts). Not in the API.
   */
  @Property({ type: 'bigint', nullable: true, hidden: true })
  claimedBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true, hidden: true })
  claimedUntil: Date | null = null;

  constructor(scope: Scope, fields: { webhookId: string; eventId: string; event: string; now: Date }) {
    super();
    this.assignScope(scope);
    this.webhookId = fields.webhookId;
    this.eventId = fields.eventId;
    this.event = fields.event;
    this.createdAt = fields.now;
  }
}

/** One HTTP request of a delivery: the delivery log (SPEC 6: every attempt is recorded). */
@ObjectType({ description: 'One HTTP attempt of a delivery' })
@Entity({ tableName: 'webhook_attempts' })
@Index({ properties: ['deliveryId', 'attemptNumber'] })
export class WebhookAttempt extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => WebhookDelivery, { mapToPk: true, fieldName: 'delivery_id', deleteRule: 'cascade' })
  deliveryId!: string;

  @Field(() => Int, { description: '1 for the first attempt' })
  @Property({ type: 'integer' })
  attemptNumber!: number;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  attemptedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'HTTP status; null when no response came' })
  @Property({ type: 'integer', nullable: true })
  statusCode!: number | null;

  @Field(() => Int, { description: 'From sending the request to the end of the response (or the error)' })
  @Property({ type: 'integer' })
  latencyMs!: number;

  @Field(() => String, { nullable: true, description: 'Why the attempt failed (timeout, refused, non-2xx)' })
  @Property({ type: 'text', nullable: true })
  error!: string | null;
}
