import { GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';
import { EventSeverityLevel } from '../subscriptions/event-payload.types.js';

/** The most entries a webhook may list (checked in webhook.validation.ts). */
export const MAX_EVENT_PATTERNS = 50;
export const MAX_TENANT_IDS = 100;
export const MAX_HEADERS = 20;

@InputType({ description: 'Which events reach the webhook besides its event kinds' })
export class WebhookFilterInput {
  @Field(() => [GraphQLUUID], {
    nullable: true,
    description: `Only events of these tenants (at most ${MAX_TENANT_IDS}). Absent or empty: every tenant`,
  })
  tenantIds?: string[] | null;

  @Field(() => EventSeverityLevel, { nullable: true, description: 'Only events at or above this severity' })
  minSeverity?: EventSeverityLevel | null;
}

/** The fields a webhook is made of; the service checks them (it must resolve the URL's host anyway). */
export interface WebhookFields {
  url?: string | null;
  events?: string[] | null;
  filter?: WebhookFilterInput | null;
  headers?: Record<string, unknown> | null;
  enabled?: boolean | null;
}

@InputType({ description: 'A new webhook; its signing secret is returned once, in the response' })
export class CreateWebhookInput implements WebhookFields {
  @Field({ description: 'http(s) endpoint; private, loopback and link-local addresses are refused' })
  url!: string;

  @Field(() => [String], {
    description: `Event kinds to receive (at most ${MAX_EVENT_PATTERNS}); * matches any run of characters: security.*, *`,
  })
  events!: string[];

  @Field(() => WebhookFilterInput, { nullable: true })
  filter?: WebhookFilterInput | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: `Headers sent with every delivery, e.g. {"Authorization": "Bearer ..."} (at most ${MAX_HEADERS})`,
  })
  headers?: Record<string, unknown> | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true' })
  enabled?: boolean | null;
}

@InputType({ description: 'Changes to a webhook: only the given fields change' })
export class UpdateWebhookInput implements WebhookFields {
  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => [String], { nullable: true })
  events?: string[] | null;

  @Field(() => WebhookFilterInput, { nullable: true, description: 'Replaces the filter; null clears it' })
  filter?: WebhookFilterInput | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Replaces the headers; null clears them' })
  headers?: Record<string, unknown> | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'true re-enables a webhook the service disabled (and forgets its failures)',
  })
  enabled?: boolean | null;
}
