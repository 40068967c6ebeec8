import { AppError } from '../core/errors.js';
import type { EventPayload } from '../core/events/event-filter.js';
import type { Scope } from '../core/scope.js';

/** How many undelivered events one subscriber may hold before it is ended (a client that stopped reading). */
export const SUBSCRIBER_QUEUE_CAPACITY = 1000;

export class SubscriberTooSlowError extends AppError {
  constructor(capacity: number) {
    super(
      'RATE_LIMITED',
      `This subscription fell more than ${capacity} events behind and was ended; subscribe again`,
      { reason: 'SUBSCRIBER_TOO_SLOW', capacity },
    );
  }
}

type Waiter = (result: IteratorResult<EventPayload>) => void;

/**
 * One subscriber's events, in order. Filtering happens before queueing, so a subscriber only ever holds
 * events it will receive; the queue is bounded, so a client that stops reading cannot grow the server's memory.
 * `return()` always detaches, even before the first `next()` (graphql-ws does that when a client completes
 * an operation that is still starting).
 */
class EventStream implements AsyncIterableIterator<EventPayload> {
  private readonly queue: EventPayload[] = [];
  private waiter: Waiter | null = null;
  private overflowed = false;
  private ended = false;

  constructor(
    private readonly accepts: (event: EventPayload) => boolean,
    private readonly capacity: number,
    private readonly detach: (stream: EventStream) => void,
  ) {}

  offer(event: EventPayload): void {
    if (this.ended || this.overflowed || !this.accepts(event)) return;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter({ value: event, done: false });
    } else if (this.queue.length >= this.capacity) {
      // Keep what is queued (the client still gets it), then end with an error instead of dropping silently.
      this.overflowed = true;
      this.detach(this);
    } else {
      this.queue.push(event);
    }
  }

  next(): Promise<IteratorResult<EventPayload>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (this.overflowed && !this.ended) {
      this.finish();
      return Promise.reject(new SubscriberTooSlowError(this.capacity));
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  return(): Promise<IteratorResult<EventPayload>> {
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<EventPayload>> {
    this.finish();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<EventPayload> {
    return this;
  }

  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue.length = 0;
    this.detach(this);
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.({ value: undefined, done: true });
  }
}

function scopeKey(scope: Scope): string {
  return `${scope.organizationId}:${scope.environment}`;
}

/**
 * The in-process pub/sub of one server: the event bridge publishes every committed domain event here,
 * and each GraphQL subscription reads its own stream. Subscribers are grouped by organization and
 * environment, so an event only ever reaches streams of its own scope; the per-stream rule does the rest.
 */
export class EventHub {
  private readonly streamsByScope = new Map<string, Set<EventStream>>();
  private streamCount = 0;

  constructor(private readonly capacity: number = SUBSCRIBER_QUEUE_CAPACITY) {}

  /** Nobody listening: the bridge skips loading events it would only throw away. */
  get subscriberCount(): number {
    return this.streamCount;
  }

  publish(scope: Scope, event: EventPayload): void {
    const streams = this.streamsByScope.get(scopeKey(scope));
    if (!streams) return;
    for (const stream of [...streams]) stream.offer(event);
  }

  /** The events of `scope` that `accepts` lets through, from now on, until the iterator is returned. */
  subscribe(scope: Scope, accepts: (event: EventPayload) => boolean): AsyncIterableIterator<EventPayload> {
    const key = scopeKey(scope);
    let streams = this.streamsByScope.get(key);
    if (!streams) {
      streams = new Set();
      this.streamsByScope.set(key, streams);
    }
    const stream = new EventStream(accepts, this.capacity, (detached) => this.detach(key, detached));
    streams.add(stream);
    this.streamCount += 1;
    return stream;
  }

  /** Ends every stream (server stop). */
  close(): void {
    for (const streams of [...this.streamsByScope.values()])
      for (const stream of [...streams]) stream.finish();
  }

  private detach(key: string, stream: EventStream): void {
    const streams = this.streamsByScope.get(key);
    if (!streams?.delete(stream)) return;
    this.streamCount -= 1;
    if (streams.size === 0) this.streamsByScope.delete(key);
  }
}
