import type pg from 'pg';
import type { EventPayload } from '../core/events/event-filter.js';
import { EVENTS_CHANNEL } from '../core/events/record-event.js';
import type { Clock } from '../core/clock.js';
import type { ListenerState, PgListener } from '../core/pg-listener.js';
import type { Environment } from '../core/scope.js';
import type { EventHub } from './event-hub.js';
import { WEBHOOK_ONLY_KINDS } from '../core/events/event-kinds.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids loaded per statement when events arrive in a burst (a tenant sync emits many at once). */
const BATCH_SIZE = 500;
/** Ids of events heard through NOTIFY (published or not), so a catch-up replays only what was missed. */
const REMEMBERED_IDS = 20_000;
/**
 * How far before the loss of the LISTEN connection a catch-up reads: an event's time is taken before its
 * transaction commits, so a change committed during the outage may carry an earlier time (and another
 * process's clock may be a little behind).
 */
const CATCH_UP_MARGIN_MS = 60_000;
/** At most this many events are replayed after an outage; older ones are gone for live subscribers. */
const CATCH_UP_LIMIT = 10_000;

interface EventRow {
  id: string;
  organization_id: string;
  environment: Environment;
  payload: EventPayload;
}

/**
 * Cross-process fan-out: every server process hears `pg_notify('domain_events', <event id>)` (sent on
 * commit by recordEvent, whichever process made the change), loads the committed event by primary key
 * and publishes it to its own EventHub. Ids that arrive while a load is running are gathered into the
 * next statement, and events are published in the order PostgreSQL delivered their notifications.
 *
 * The read is unscoped on purpose (it runs for no particular viewer); the hub then routes each event to
 * subscribers of its own organization and environment only.
 *
 * When the LISTEN connection drops, NOTIFYs sent meanwhile are lost; once it listens again the bridge
 * reads the outbox from a little before the loss and publishes what it had not, so a subscriber misses
 * nothing committed during the outage (late, but in order of occurrence).
 */
export class EventBridge {
  private pending: string[] = [];
  private draining: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;
  private unwatch: (() => void) | null = null;
  private readonly heardIds = new Set<string>();
  private lostAt: Date | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly hub: EventHub,
    private readonly clock: Clock,
    private readonly log: (error: unknown) => void,
  ) {}

  async start(listener: PgListener): Promise<void> {
    this.unlisten = await listener.listen(EVENTS_CHANNEL, (eventId) => this.heard(eventId));
    this.unwatch = listener.onStateChange((state) => this.listenerState(state));
  }

  /** Stops listening and waits for the batch in flight. */
  async stop(): Promise<void> {
    this.unlisten?.();
    this.unlisten = null;
    this.unwatch?.();
    this.unwatch = null;
    this.pending = [];
    await this.draining;
  }

  private listenerState(state: ListenerState): void {
    if (state === 'lost') {
      this.lostAt ??= this.clock.now();
      return;
    }
    const since = this.lostAt;
    this.lostAt = null;
    if (!since || this.hub.subscriberCount === 0) return;
    const from = new Date(since.getTime() - CATCH_UP_MARGIN_MS);
    // Queued behind any batch in flight, so events still come out in one order.
    const previous = this.draining ?? Promise.resolve();
    this.draining = previous
      .then(() => this.catchUp(from))
      .catch((error: unknown) => this.log(error))
      .finally(() => (this.draining = null));
  }

  private async catchUp(from: Date): Promise<void> {
    const { rows } = await this.pool.query<EventRow>(
      `select id, organization_id, environment, payload from domain_events
        where occurred_at >= $1 order by occurred_at, id limit $2`,
      [from, CATCH_UP_LIMIT],
    );
    for (const row of rows) {
      if (this.heardIds.has(row.id)) continue;
      this.remember(row.id);
      this.publishRow(row);
    }
  }

  private heard(eventId: string): void {
    if (!UUID.test(eventId)) return;
    const id = eventId.toLowerCase();
    this.remember(id);
    // Nobody subscribed in this process: nothing to load (the outbox row stays for webhooks).
    if (this.hub.subscriberCount === 0) return;
    this.pending.push(id);
    this.draining ??= this.drain().finally(() => (this.draining = null));
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const ids = this.pending.splice(0, BATCH_SIZE);
      try {
        await this.publish(ids);
      } catch (error) {
        this.log(error);
      }
    }
  }

  private async publish(ids: string[]): Promise<void> {
    const { rows } = await this.pool.query<EventRow>(
      'select id, organization_id, environment, payload from domain_events where id = any($1::uuid[])',
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids) {
      const row = byId.get(id);
      if (row) this.publishRow(row);
    }
  }

  private publishRow(row: EventRow): void {
    if (WEBHOOK_ONLY_KINDS.has(row.payload.event)) return;
    this.hub.publish({ organizationId: row.organization_id, environment: row.environment }, row.payload);
  }

  private remember(id: string): void {
    this.heardIds.add(id);
    if (this.heardIds.size > REMEMBERED_IDS) {
      // A Set iterates in insertion order: the first id is the oldest.
      const oldest = this.heardIds.values().next().value;
      if (oldest !== undefined) this.heardIds.delete(oldest);
    }
  }
}
