import { Entity, Index, Property } from '@mikro-orm/decorators/legacy';
import { ScopedEntity, type Scope } from '../scope.js';

export type EventSeverity = 'informational' | 'low' | 'medium' | 'high' | 'critical';

/**
 * The outbox: every domain event is written in the same transaction as the change that caused it,
 * so a crash between commit and delivery loses nothing. Webhook delivery and subscriptions read from here.
 */
@Entity({ tableName: 'domain_events' })
@Index({ properties: ['organizationId', 'environment', 'occurredAt'] })
export class DomainEvent extends ScopedEntity {
  /** Dotted kind, e.g. `user.created`. */
  @Property()
  kind!: string;

  @Property()
  severity!: EventSeverity;

  @Property({ type: 'uuid', nullable: true })
  tenantId: string | null = null;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  constructor(
    scope: Scope,
    fields: {
      kind: string;
      severity: EventSeverity;
      tenantId: string | null;
      payload: Record<string, unknown>;
      occurredAt: Date;
    },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
