import { GraphQLDateTime, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DeliveryStatus } from '../webhooks/webhook-delivery.entity.js';
import { WebhookFilter } from '../webhooks/webhook.entity.js';
import { WebhookFilterInput, type WebhookFields } from '../webhooks/webhook.types.js';
import { IntegrationType } from './integration.entity.js';

export enum IntegrationStatus {
  NOT_CONNECTED = 'Not Connected',
  CONNECTED = 'Connected',
  /** Connected, but its latest attempts failed (retries are running). */
  FAILING = 'Failing',
  /** Disabled by the service (410 Gone, 5 days of failures) or by a person. */
  DISABLED = 'Disabled',
}
registerEnumType(IntegrationStatus, {
  name: 'IntegrationStatus',
  description:
    'Not Connected | Connected | Failing (latest attempts failed, retrying) | Disabled (receives nothing)',
});

@ObjectType({ description: 'The latest delivery of an integration' })
export class IntegrationDelivery {
  @Field(() => ID)
  id!: string;

  @Field()
  event!: string;

  @Field(() => DeliveryStatus)
  status!: DeliveryStatus;

  @Field(() => Int, { nullable: true })
  statusCode!: number | null;

  @Field(() => GraphQLDateTime, { description: 'Its latest attempt, or when it was queued' })
  at!: Date;
}

@ObjectType('Integration', {
  description: 'An integration of settings/integrations (SPEC 4.2) and its state',
})
export class IntegrationView {
  @Field(() => IntegrationType)
  type!: IntegrationType;

  @Field()
  name!: string;

  @Field()
  description!: string;

  @Field()
  connected!: boolean;

  @Field(() => IntegrationStatus)
  status!: IntegrationStatus;

  @Field(() => GraphQLDateTime, { nullable: true })
  connectedAt!: Date | null;

  @Field(() => ID, { nullable: true, description: 'The webhook that carries it' })
  webhookId!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Target; Slack and Teams URLs hold a credential, so only their host and last characters show',
  })
  url!: string | null;

  @Field(() => [String], { description: 'Event kinds it receives (wildcards allowed)' })
  events!: string[];

  @Field(() => WebhookFilter, { nullable: true })
  filter!: WebhookFilter | null;

  @Field(() => IntegrationDelivery, { nullable: true })
  lastDelivery!: IntegrationDelivery | null;

  @Field(() => String, {
    nullable: true,
    description: 'webhook type: the signing secret (whsec_...), only in the connect response',
  })
  secret!: string | null;
}

@InputType({ description: 'How to connect an integration' })
export class ConnectIntegrationInput implements WebhookFields {
  @Field({
    description:
      'webhook: your https endpoint; slack: a https://hooks.slack.com/services/... URL; teams: an incoming-webhook or workflow URL',
  })
  url!: string;

  @Field(() => [String], {
    nullable: true,
    description:
      'Event kinds (wildcards allowed). Default: * for webhook; security.*, alert.*, restore.failed, webhook.disabled for chats',
  })
  events?: string[] | null;

  @Field(() => WebhookFilterInput, { nullable: true })
  filter?: WebhookFilterInput | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'webhook type only: headers sent with deliveries',
  })
  headers?: Record<string, unknown> | null;
}
