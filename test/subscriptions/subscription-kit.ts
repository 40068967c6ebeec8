import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { EventSeverity } from '../../src/core/events/domain-event.entity.js';
import type { EventTenant } from '../../src/core/events/record-event.js';
import { onServer } from '../helpers/on-server.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { Scope } from '../../src/core/scope.js';
import { check, eventually } from '../helpers/eventually.js';

/** An event as a subscriber receives it (GraphQL spelling: severity is an enum name). */
export interface WireEvent {
  id: string;
  event: string;
  severity: string;
  tenant: { id: string; name: string; domain: string } | null;
  details: Record<string, unknown>;
  timestamp: string;
  actionUrl: string;
}

export const EVENT_FIELDS = 'id event severity tenant { id name domain } details timestamp actionUrl';

type Message =
  | {
      kind: 'next';
      data?: Record<string, WireEvent>;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    }
  | { kind: 'error'; error: unknown }
  | { kind: 'complete' };

/** Bounds every wait of these tests. */
const WAIT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One subscription's messages, buffered in arrival order so a test can read them one at a time. */
export class TestSubscription {
  private readonly buffer: Message[] = [];
  private waiter: ((message: Message) => void) | null = null;
  private readonly dispose: () => void;

  constructor(
    client: Client,
    readonly field: string,
    query: string,
    variables: Record<string, unknown> = {},
  ) {
    this.dispose = client.subscribe(
      { query, variables },
      {
        next: (value) => this.push({ kind: 'next', ...(value as object) }),
        error: (error) => this.push({ kind: 'error', error }),
        complete: () => this.push({ kind: 'complete' }),
      },
    );
  }

  private push(message: Message): void {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(message);
    } else this.buffer.push(message);
  }

  /** The next message, or null when none arrives within `ms`. */
  async nextMessage(ms = WAIT_MS): Promise<Message | null> {
    const buffered = this.buffer.shift();
    if (buffered) return buffered;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, ms);
      this.waiter = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  /** The next event; fails on a timeout, an error or the end of the subscription. */
  async nextEvent(ms = WAIT_MS): Promise<WireEvent> {
    const message = await this.nextMessage(ms);
    if (!message) throw new Error(`No event on ${this.field} within ${ms} ms`);
    if (message.kind !== 'next' || message.errors || !message.data)
      throw new Error(`Expected an event on ${this.field}, got ${JSON.stringify(message)}`);
    return message.data[this.field];
  }

  close(): void {
    this.dispose();
  }
}

export interface Connection {
  client: Client;
  /** The close code and reason once the socket closes (bounded wait). */
  closed(): Promise<{ code: number; reason: string }>;
  /** The connection_ack payload (bounded wait). */
  acknowledged(): Promise<Record<string, unknown> | undefined>;
  subscribe(field: string, query: string, variables?: Record<string, unknown>): TestSubscription;
  close(): Promise<void>;
}

/** A real graphql-ws client over `ws`, connecting at once (not lazily) and never retrying. */
export function connect(
  baseUrl: string,
  connectionParams?: Record<string, unknown>,
  /** Headers of the HTTP upgrade request (e.g. X-Forwarded-For as a proxy would add it). */
  upgradeHeaders?: Record<string, string>,
): Connection {
  let onClosed: (event: { code: number; reason: string }) => void = () => undefined;
  let onAck: (payload: Record<string, unknown> | undefined) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
  const acknowledged = new Promise<Record<string, unknown> | undefined>((resolve) => (onAck = resolve));
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: upgradeHeaders ? webSocketWithHeaders(upgradeHeaders) : WebSocket,
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    on: {
      connected: (_socket, payload) => onAck(payload as Record<string, unknown> | undefined),
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        onClosed({ code, reason: String(reason) });
      },
    },
  });
  return {
    client,
    closed: () => withTimeout(closed, WAIT_MS, 'the socket to close'),
    acknowledged: () => withTimeout(acknowledged, WAIT_MS, 'connection_ack'),
    subscribe: (field, query, variables) => new TestSubscription(client, field, query, variables),
    close: async () => {
      await client.dispose();
    },
  };
}

function webSocketWithHeaders(headers: Record<string, string>) {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
}

export function bearer(key: string): Record<string, unknown> {
  return { authorization: `Bearer ${key}` };
}

/** Commits a domain event straight into the outbox (and NOTIFY), as any service's emitEvent would. */
export async function emitTestEvent(
  app: TestServer,
  scope: Scope,
  event: {
    kind: string;
    severity?: EventSeverity;
    tenant?: EventTenant | null;
    details?: Record<string, unknown>;
  },
): Promise<string> {
  return onServer(app, 'commitEvent', scope, {
    kind: event.kind,
    severity: event.severity ?? 'informational',
    tenant: event.tenant ?? null,
    details: event.details ?? {},
    actionPath: '/events',
  });
}

/**
 * A server has no "subscribed" acknowledgement, so a test cannot know when a subscription became live.
 * This emits probe events (which every given subscription must accept) until each has received one, then
 * reads each up to the last probe sent: from then on every subscription is live with an empty buffer, so
 * "the next event is X" is a sound assertion (a process delivers events to a subscriber in commit order).
 */
export async function waitUntilLive(
  subscriptions: TestSubscription[],
  emitProbe: (probe: number) => Promise<unknown>,
): Promise<void> {
  const received = subscriptions.map((): number | null => null);
  let sent = 0;
  // No pause between attempts: each one already waits up to 100 ms per subscription for its probe.
  await eventually(
    async () => {
      sent += 1;
      await emitProbe(sent);
      for (const [index, subscription] of subscriptions.entries()) {
        if (received[index] !== null) continue;
        const message = await subscription.nextMessage(100);
        if (message) received[index] = probeNumber(message);
      }
      const waiting = received.filter((probe) => probe === null).length;
      check(waiting === 0, `${waiting} of ${subscriptions.length} subscriptions received no probe`);
    },
    { timeout: WAIT_MS * 2, interval: 0, what: 'the subscriptions to become live' },
  );
  for (const [index, subscription] of subscriptions.entries()) {
    let probe = received[index]!;
    while (probe < sent) probe = probeNumber(await subscription.nextMessage());
  }
}

function probeNumber(message: Message | null): number {
  if (!message || message.kind !== 'next' || !message.data)
    throw new Error(`Expected a probe event, got ${JSON.stringify(message)}`);
  const event = Object.values(message.data)[0];
  const probe = event.details.probe;
  if (typeof probe !== 'number') throw new Error(`Expected a probe event, got ${JSON.stringify(event)}`);
  return probe;
}
