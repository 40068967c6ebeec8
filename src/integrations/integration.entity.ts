import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { registerEnumType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Webhook } from '../webhooks/webhook.entity.js';

/** The integrations of SPEC 4.2: each is carried by one webhook of the matching format. */
export enum IntegrationType {
  WEBHOOK = 'webhook',
  SLACK = 'slack',
  TEAMS = 'teams',
}
registerEnumType(IntegrationType, {
  name: 'IntegrationType',
  description: 'webhook: signed event deliveries; slack and teams: readable messages to an incoming webhook',
});

/** One connected integration of an organization and environment (at most one per type). */
@Entity({ tableName: 'integrations' })
@Unique({ properties: ['organizationId', 'environment', 'type'] })
export class Integration extends ScopedEntity {
  [OptionalProps]?: 'connectedAt';

  @Enum({ items: () => IntegrationType })
  type!: IntegrationType;

  /** Deleting the webhook (also through /v1/webhooks) disconnects the integration. */
  @ManyToOne(() => Webhook, { mapToPk: true, fieldName: 'webhook_id', deleteRule: 'cascade', unique: true })
  webhookId!: string;

  @Property({ type: 'timestamptz' })
  connectedAt: Date = new Date();

  constructor(scope: Scope, fields: { type: IntegrationType; webhookId: string; connectedAt: Date }) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
