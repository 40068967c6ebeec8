import { raw, ReferenceKind, type EntityManager, type EntityMetadata } from '@mikro-orm/postgresql';
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

/** domain_events' INSERT, a `?` per column, and how each column's value is read from a row. */
interface EventInsertShape {
  sql: string;
  values: Array<(row: DomainEvent) => unknown>;
}

/** Per metadata: each ORM discovers its own (a test process opens several); built once for each. */
const insertShapes = new WeakMap<EntityMetadata<DomainEvent>, EventInsertShape>();

/** A property the row leaves undefined is written as its column's default, as `em.insert` and a flush do. */
const COLUMN_DEFAULT = raw('default');

/**
 * The INSERT of DomainEvent's rows, built from the ORM's metadata of it: every persisted property is a column
 * (a column added to the entity is written with no change here), converted as the ORM converts it (its
 * custom type: the payload to JSON text; a Date formatted by the platform, the payload's `timestamp` instant). A property this cannot
 * write as a plain value (a relation, an embeddable, a type that wraps its parameter in SQL) throws, naming
 * it, on the first event: never a column silently left out.
 */
function eventInsertShapeOf(em: EntityManager): EventInsertShape {
  const meta = em.getMetadata().get(DomainEvent);
  const known = insertShapes.get(meta);
  if (known) return known;
  const platform = em.getPlatform();
  const columns: string[] = [];
  const values: Array<(row: DomainEvent) => unknown> = [];
  for (const prop of meta.props) {
    if (prop.persist === false || prop.formula || prop.generated) continue; // not a column one writes
    const type = prop.customType;
    if (
      prop.kind !== ReferenceKind.SCALAR ||
      prop.fieldNames.length !== 1 ||
      (type?.convertToDatabaseValueSQL && type.convertToDatabaseValueSQL('?', platform) !== '?')
    )
      throw new Error(`recordEvent writes plain columns only: DomainEvent.${prop.name} needs its own SQL`);
    const name = prop.name as keyof DomainEvent;
    columns.push(platform.quoteIdentifier(prop.fieldNames[0]));
    values.push((row) => {
      const value = row[name];
      if (value === undefined) return COLUMN_DEFAULT;
      return type && value !== null ? type.convertToDatabaseValue(value, platform, { mode: 'query' }) : value;
    });
  }
  const shape = {
    sql: `insert into ${platform.quoteIdentifier(meta.tableName)} (${columns.join(', ')})
          values (${columns.map(() => '?').join(', ')})`,
    values,
  };
  insertShapes.set(meta, shape);
  return shape;
}

/** The row's INSERT as SQL (every column of DomainEvent: eventInsertShapeOf). */
function eventInsertOf(em: EntityManager, row: DomainEvent): EventInsert {
  const { sql, values } = eventInsertShapeOf(em);
  return { sql, params: values.map((value) => value(row)) };
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
  await fanOutEvent(em, scope, row, deps, eventInsertOf(em, row));
  return row;
}
