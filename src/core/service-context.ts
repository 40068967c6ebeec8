import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudAccess } from '../cloud/cloud-access.js';
import type { CloudProviders } from '../cloud/cloud-provider.js';
import type { Clock } from './clock.js';
import type { OutboxSubscriber } from './events/event-fanout.js';
import { recordEvent, type NewEvent } from './events/record-event.js';
import type { DomainEvent } from './events/domain-event.entity.js';
import type { Scope } from './scope.js';

/**
 * Process-wide dependencies shared by every request and job. A feature that needs settings of its own adds
 * its field here by declaration merging in its own folder (webhooks: `webhooks`, src/webhooks/webhook.settings.ts),
 * so core names no feature.
 */
export interface AppDeps {
  clock: Clock;
  /** Picks each organization's and environment's cloud; features use their context's `cloud` instead. */
  clouds: CloudProviders;
  /** Origin used to build links such as an event's actionUrl. */
  publicUrl: string;
  /**
   * What acts on every recorded event inside its transaction (webhook deliveries): every feature's
   * `outboxSubscribers`, OUTBOX_SUBSCRIBERS in src/features.ts.
   */
  outboxSubscribers: readonly OutboxSubscriber[];
}

/**
 * What a service needs: its own EntityManager (already confined to `scope` by the scope filter),
 * the scope to stamp on new rows, and who is acting (for audit fields such as deletedBy).
 * Built per request by the GraphQL context and per job by the job runner.
 */
export interface ServiceContext extends AppDeps {
  em: EntityManager;
  scope: Scope;
  actor: string;
  /** The upstream cloud as this scope's organization and environment see it: `cloud.forTenant(externalId)`. */
  cloud: CloudAccess;
}

export function emitEvent(ctx: ServiceContext, event: NewEvent): Promise<DomainEvent> {
  return recordEvent(ctx.em, ctx.scope, ctx, event);
}
