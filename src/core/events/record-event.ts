import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import { DomainEvent, type EventSeverity } from './domain-event.entity.js';

export interface EventTenant {
  id: string;
  name: string;
  domain: string;
}

export interface NewEvent {
  kind: string;
  severity: EventSeverity;
  tenant: EventTenant | null;
  details: Record<string, unknown>;
  /** Path of the related item in the application, e.g. `/tenants/<id>/users/<id>`. */
  actionPath: string;
}

export const EVENTS_CHANNEL = 'domain_events';

/**
 * The one way to emit a domain event: call it inside the transaction of the change.
 * The event row commits with the change (outbox); the NOTIFY is delivered by PostgreSQL only on commit,
 * so listeners in every server process hear about committed events and nothing else.
 */
export async function recordEvent(
  em: EntityManager,
  scope: Scope,
  clock: Clock,
  publicUrl: string,
  event: NewEvent,
): Promise<DomainEvent> {
  const occurredAt = clock.now();
  const row = new DomainEvent(scope, {
    kind: event.kind,
    severity: event.severity,
    tenantId: event.tenant?.id ?? null,
    occurredAt,
    payload: {},
  });
  row.payload = {
    id: row.id,
    event: event.kind,
    severity: event.severity,
    tenant: event.tenant,
    details: event.details,
    timestamp: occurredAt.toISOString(),
    actionUrl: new URL(event.actionPath, publicUrl).toString(),
  };
  em.persist(row);
  await em.flush();
  await em.execute('select pg_notify(?, ?)', [EVENTS_CHANNEL, row.id]);
  return row;
}
