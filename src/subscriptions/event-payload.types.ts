import { GraphQLDateTime, GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import type { EventSeverity } from '../core/events/domain-event.entity.js';
import type { EventPayload } from '../core/events/event-filter.js';

/** GraphQL spelling of the event severities (UPPER_SNAKE names; the values are the webhook body's words). */
export enum EventSeverityLevel {
  INFORMATIONAL = 'informational',
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
  CRITICAL = 'critical',
}
registerEnumType(EventSeverityLevel, {
  name: 'EventSeverity',
  description: 'Least to most severe: INFORMATIONAL, LOW, MEDIUM, HIGH, CRITICAL',
});

/** The enum's values are the core severities; the compiler checks the assignment, so the two cannot drift. */
export function severityOf(level: EventSeverityLevel | null | undefined): EventSeverity | null {
  return level ?? null;
}

@ObjectType('EventTenant', { description: 'The tenant an event is about' })
export class EventTenantType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  domain!: string;
}

@ObjectType('EventPayload', {
  description: 'A domain event: the webhook body of SPEC 6 plus its unique id (DECISIONS "Events")',
})
export class EventPayloadType implements EventPayload {
  @Field(() => ID, { description: 'Unique event id (the webhook-id of its deliveries)' })
  id!: string;

  @Field(() => String, { description: 'Event kind, dotted (e.g. user.created)' })
  event!: string;

  @Field(() => EventSeverityLevel)
  severity!: EventSeverity;

  @Field(() => EventTenantType, { nullable: true, description: 'Absent for events about no tenant' })
  tenant!: EventTenantType | null;

  @Field(() => GraphQLJSONObject, { description: 'Kind-specific fields (SPEC 6)' })
  details!: Record<string, unknown>;

  @Field(() => GraphQLDateTime, { description: 'When it happened (ISO 8601, UTC)' })
  timestamp!: string;

  @Field(() => String, { description: 'URL of the related item in the application' })
  actionUrl!: string;
}

@InputType({
  description: 'Which events a subscriber wants; the same rule as webhook subscriptions and filters',
})
export class EventFilterInput {
  @Field(() => [String], {
    nullable: true,
    description: 'Event kinds; * matches any run of characters (security.*, *). Absent or empty: every kind',
  })
  events?: string[] | null;

  @Field(() => [GraphQLUUID], {
    nullable: true,
    description: 'Only events of these tenants. Absent or empty: every tenant, and events about no tenant',
  })
  tenantIds?: string[] | null;

  @Field(() => EventSeverityLevel, { nullable: true, description: 'Only events at or above this severity' })
  minSeverity?: EventSeverityLevel | null;
}

/** The filters of a per-kind subscription (the kind is the field itself). */
@ArgsType()
export class EventKindSubscriptionArgs {
  @Field(() => [GraphQLUUID], {
    nullable: true,
    description: 'Only events of these tenants. Absent or empty: every tenant',
  })
  tenantIds?: string[] | null;

  @Field(() => EventSeverityLevel, { nullable: true, description: 'Only events at or above this severity' })
  minSeverity?: EventSeverityLevel | null;
}
