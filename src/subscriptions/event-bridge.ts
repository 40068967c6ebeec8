import type pg from 'pg';
import type { EventPayload } from '../core/events/event-filter.js';
import { EVENTS_CHANNEL } from '../core/events/record-event.js';
import type { PgListener } from '../core/pg-listener.js';
import type { Environment } from '../core/scope.js';
import type { EventHub } from './event-hub.js';
import { WEBHOOK_ONLY_KINDS } from './event-kinds.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids loaded per statement when events arrive in a burst (a tenant sync emits many at once). */
const BATCH_SIZE = 500;

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
 */
export class EventBridge {
  private pending: string[] = [];
  private draining: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly hub: EventHub,
    private readonly log: (error: unknown) => void,
  ) {}

  async start(listener: PgListener): Promise<void> {
    this.unlisten = await listener.listen(EVENTS_CHANNEL, (eventId) => this.heard(eventId));
  }

  /** Stops listening and waits for the batch in flight. */
  async stop(): Promise<void> {
    this.unlisten?.();
    this.unlisten = null;
    this.pending = [];
    await this.draining;
  }

  private heard(eventId: string): void {
    // Nobody subscribed in this process: nothing to load (the outbox row stays for webhooks).
    if (this.hub.subscriberCount === 0 || !UUID.test(eventId)) return;
    this.pending.push(eventId.toLowerCase());
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
      if (!row || WEBHOOK_ONLY_KINDS.has(row.payload.event)) continue;
      this.hub.publish({ organizationId: row.organization_id, environment: row.environment }, row.payload);
    }
  }
}
