import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../clock.js';
import type { Scope } from '../scope.js';
import { DomainEvent, type EventSeverity } from './domain-event.entity.js';
import { fanOutEvent, type EventInsert, type OutboxDeps } from './event-fanout.js';

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
  /**
   * Path of the related item in the application UI, e.g. `/tenants/<id>/users/<id>`: joined to the
   * public URL (its path prefix kept) to make the event's actionUrl.
   */
  actionPath: string;
}

export { EVENTS_CHANNEL } from './event-fanout.js';

/** What recording an event needs from the process: its clock, its public URL (links) and the outbox's subscribers. */
export interface EventDeps extends OutboxDeps {
  publicUrl: string;
}

/**
 * `publicUrl` + the item's application path, keeping a path prefix of `publicUrl`
 * (`https://msp.example.com/admin` + `/tenants/1` → `https://msp.example.com/admin/tenants/1`), which
 * `new URL(path, base)` would drop. The paths are routes of the application UI (docs/webhooks.md "Links").
 */
export function actionUrlOf(publicUrl: string, actionPath: string): string {
  const base = new URL(publicUrl);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(actionPath.replace(/^\/+/, ''), base).toString();
}

/**
 * Writes the outbox row only: no NOTIFY (subscribers) and no fan-out (webhooks). For events addressed
 * to one recipient, such as a webhook's test ping, whose sender delivers them itself.
 *
 * Inside a transaction the row is its own INSERT in it (`em.insert`: the unit of work is neither flushed nor
 * told), so recording an event costs one statement however many entities the caller's EntityManager holds
 * (a tenant sync's fork holds hundreds, and a flush compares every one of them). The caller's pending changes
 * are not written by it: they commit with the transaction (which flushes them at its end) or not at all, and
 * the event with them. Nothing between the event and the commit reads them (the fan-out reads the webhooks
 * table; subscribers and deliveries run after the commit); a caller whose later raw SQL needs them flushes
 * first, as every caller does today (docs/decisions.md "Recording an event"). Outside a transaction the row
 * is flushed with the caller's pending changes, as one transaction, so the event still exists only with them.
 */
export async function writeEventRow(
  em: EntityManager,
  scope: Scope,
  clock: Clock,
  publicUrl: string,
  event: NewEvent,
): Promise<DomainEvent> {
  const row = eventRowOf(scope, clock, publicUrl, event);
  if (em.isInTransaction()) {
    await em.insert(row);
  } else {
    em.persist(row);
    await em.flush();
  }
  return row;
}

/** The outbox row of `event`, not written. */
function eventRowOf(scope: Scope, clock: Clock, publicUrl: string, event: NewEvent): DomainEvent {
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
    actionUrl: actionUrlOf(publicUrl, event.actionPath),
  };
  return row;
}

/**
 * The row's INSERT as SQL: every column of DomainEvent (a column added there is added here; the event tests
 * read the rows back). The time goes as its ISO text, the same instant as the payload's `timestamp`.
 */
function eventInsertOf(row: DomainEvent): EventInsert {
  return {
    sql: `insert into domain_events
            (id, organization_id, environment, kind, severity, tenant_id, payload, occurred_at)
          values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz)`,
    params: [
      row.id,
      row.organizationId,
      row.environment,
      row.kind,
      row.severity,
      row.tenantId,
      JSON.stringify(row.payload),
      row.occurredAt.toISOString(),
    ],
  };
}

/**
 * The one way to emit a domain event: call it inside the transaction of the change.
 * The event row commits with the change (outbox), and so does what its outbox subscribers write in that same
 * transaction (event-fanout.ts; the webhook deliveries and their jobs); the NOTIFY is delivered by PostgreSQL
 * only on commit, so listeners in every server process hear about committed events and nothing else.
 */
export async function recordEvent(
  em: EntityManager,
  scope: Scope,
  deps: EventDeps,
  event: NewEvent,
): Promise<DomainEvent> {
  if (!em.isInTransaction()) {
    const written = await writeEventRow(em, scope, deps.clock, deps.publicUrl, event);
    await fanOutEvent(em, scope, written, deps);
    return written;
  }
  // In a transaction (every caller): the row's INSERT and the NOTIFY in one statement (writeEventRow says why
  // the caller's unit of work is not flushed).
  const row = eventRowOf(scope, deps.clock, deps.publicUrl, event);
  await fanOutEvent(em, scope, row, deps, eventInsertOf(row));
  return row;
}
