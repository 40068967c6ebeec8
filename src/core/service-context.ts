import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudProvider } from '../cloud/provider.js';
import type { Clock } from './clock.js';
import { recordEvent, type NewEvent } from './events/record-event.js';
import type { DomainEvent } from './events/domain-event.entity.js';
import type { Scope } from './scope.js';
import type { WebhookSettings } from '../webhooks/webhook.settings.js';

/** Process-wide dependencies shared by every request and job. */
export interface AppDeps {
  clock: Clock;
  provider: CloudProvider;
  /** Origin used to build links such as an event's actionUrl. */
  publicUrl: string;
  /** Webhook delivery settings; absent: the defaults of DECISIONS (src/webhooks/webhook.settings.ts). */
  webhooks?: Partial<WebhookSettings>;
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
}

export function emitEvent(ctx: ServiceContext, event: NewEvent): Promise<DomainEvent> {
  return recordEvent(ctx.em, ctx.scope, ctx.clock, ctx.publicUrl, event);
}
