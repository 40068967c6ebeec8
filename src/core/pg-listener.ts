import pg from 'pg';
import { runOutsideOrganizationSession } from './db-session.js';

type Handler = (payload: string) => void;
/** `lost`: NOTIFYs sent from now on are missed; `restored`: listening again (after a `lost`). */
export type ListenerState = 'lost' | 'restored';
type StateHandler = (state: ListenerState) => void;

/**
 * One LISTEN connection per process, shared by every feature that needs to hear about changes made by
 * other server processes (API key revocations, domain events). PostgreSQL delivers a NOTIFY only after the
 * sending transaction commits. The connection is re-opened after a failure; what was missed in between is
 * the caller's to catch up on (`onStateChange`: caches expire, subscribers re-read the outbox).
 */
export class PgListener {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly stateHandlers = new Set<StateHandler>();
  private lost = false;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  /** Calls `handler` with the payload of every NOTIFY on `channel`; returns an unsubscribe function. */
  async listen(channel: string, handler: Handler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.client?.query(`listen ${pg.escapeIdentifier(channel)}`);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Calls `handler` when the connection is lost and when it listens again; returns an unsubscribe function. */
  onStateChange(handler: StateHandler): () => void {
    this.stateHandlers.add(handler);
    return () => this.stateHandlers.delete(handler);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) =>
      // Handlers act for every organization (service role), whatever context the client was opened in.
      runOutsideOrganizationSession(() => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      }),
    );
    client.on('error', (error) => {
      this.log(`LISTEN connection failed: ${error.message}`);
      this.connectionLost(client);
    });
    client.on('end', () => this.connectionLost(client));
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    this.client = client;
    if (this.lost) {
      this.lost = false;
      this.emitState('restored');
    }
  }

  private connectionLost(client: pg.Client): void {
    if (this.stopped || (this.client !== client && this.client !== null)) return;
    if (!this.lost) {
      this.lost = true;
      this.emitState('lost');
    }
    this.scheduleReconnect();
  }

  private emitState(state: ListenerState): void {
    for (const handler of this.stateHandlers) {
      try {
        handler(state);
      } catch (error) {
        this.log(`listener state handler failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.client = null;
    // A timer is right here: it only paces reconnection attempts, it holds no work.
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch(() => this.scheduleReconnect());
    }, 1000);
  }
}
