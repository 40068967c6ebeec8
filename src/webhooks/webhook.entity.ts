import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { EventSeverity } from '../core/events/domain-event.entity.js';
import type { EventSelection } from '../core/events/event-filter.js';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { EventSeverityLevel } from '../subscriptions/event-payload.types.js';
import { DISABLE_AFTER_FAILING_DAYS } from './webhook.settings.js';

/** How a delivery's body is written: the signed event (standard) or a chat message (integrations). */
export enum WebhookFormat {
  STANDARD = 'standard',
  SLACK = 'slack',
  TEAMS = 'teams',
}

@ObjectType({ description: 'Which events reach a webhook besides its event kinds' })
export class WebhookFilter {
  @Field(() => [GraphQLUUID], { description: 'Only events of these tenants; empty: every tenant' })
  tenantIds!: string[];

  @Field(() => EventSeverityLevel, { nullable: true, description: 'Only events at or above this severity' })
  minSeverity!: EventSeverity | null;
}

/**
 * An endpoint that receives the organization's events (SPEC 2.5, DECISIONS "Events"): signed with the
 * Standard Webhooks scheme, delivered at least once by the job queue. Integrations (Slack, Teams) are
 * webhooks too, with a chat-message format; only `standard` ones are listed under /v1/webhooks.
 */
@ObjectType({ description: 'An endpoint that receives signed event deliveries' })
@Entity({ tableName: 'webhooks' })
@Index({ properties: ['organizationId', 'environment', 'createdAt', 'id'] })
export class Webhook extends ScopedEntity {
  [OptionalProps]?:
    | 'filterTenantIds'
    | 'filterMinSeverity'
    | 'headers'
    | 'enabled'
    | 'format'
    | 'previousSigningSecret'
    | 'previousSecretExpiresAt'
    | 'disabledAt'
    | 'disabledReason'
    | 'failingSince'
    | 'createdAt'
    | 'updatedAt';

  @Field({ description: 'Target endpoint (http or https)' })
  @Property({ type: 'text' })
  url!: string;

  @Field(() => [String], { description: 'Event kinds; * matches any run of characters (security.*, *)' })
  @Property({ type: 'text[]' })
  events!: string[];

  @Property({ type: 'text[]' })
  filterTenantIds: string[] = [];

  @Property({ type: 'text', nullable: true })
  filterMinSeverity: EventSeverity | null = null;

  /** Sent with every delivery (e.g. an Authorization header the receiver checks). */
  @Property({ type: 'jsonb' })
  headers: Record<string, string> = {};

  @Field({ description: 'Disabled webhooks receive nothing' })
  @Property({ type: 'boolean' })
  enabled: boolean = true;

  @Enum({ items: () => WebhookFormat })
  format: WebhookFormat = WebhookFormat.STANDARD;

  /**
   * `whsec_<base64>`; HMAC needs the secret itself, so it is stored readable, sealed with SECRETS_KEY
   * (`enc:v1:...`, src/core/secret-box.ts), and never returned after creation.
   */
  @Property({ type: 'text' })
  signingSecret!: string;

  /** The secret before the last rotation (sealed likewise), still signing until previousSecretExpiresAt. */
  @Property({ type: 'text', nullable: true })
  previousSigningSecret: string | null = null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'Until then deliveries carry a second signature made with the previous secret',
  })
  @Property({ type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null = null;

  @Field(() => String, {
    nullable: true,
    description: `Why the service disabled it (410 Gone, ${DISABLE_AFTER_FAILING_DAYS} days of failures)`,
  })
  @Property({ type: 'text', nullable: true })
  disabledReason: string | null = null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: `Start of the current run of failed attempts; after ${DISABLE_AFTER_FAILING_DAYS} days the webhook is disabled`,
  })
  @Property({ type: 'timestamptz', nullable: true })
  failingSince: Date | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();

  constructor(
    scope: Scope,
    fields: { url: string; events: string[]; signingSecret: string; format?: WebhookFormat; now: Date },
  ) {
    super();
    this.assignScope(scope);
    this.url = fields.url;
    this.events = fields.events;
    this.signingSecret = fields.signingSecret;
    this.format = fields.format ?? WebhookFormat.STANDARD;
    this.createdAt = fields.now;
    this.updatedAt = fields.now;
  }

  @Field(() => WebhookFilter)
  get filter(): WebhookFilter {
    return { tenantIds: this.filterTenantIds ?? [], minSeverity: this.filterMinSeverity ?? null };
  }

  /** What the fan-out matches events against (eventMatches). */
  get selection(): EventSelection {
    return { events: this.events, tenantIds: this.filterTenantIds, minSeverity: this.filterMinSeverity };
  }
}
