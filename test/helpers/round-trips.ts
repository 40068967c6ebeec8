import pg from 'pg';

/** One statement sent to PostgreSQL: its text and which connection carried it. */
export interface SentStatement {
  sql: string;
  connection: number;
  /** Sent while another statement of the same connection was still unanswered (pg's pipeline mode). */
  pipelined: boolean;
  /** Sent while another recorded statement, on any connection, was still unanswered: not on its own. */
  overlapped: boolean;
  /** A named (prepared) statement's name (src/core/lean-statement.ts), and the values sent with it. */
  name?: string;
  values?: unknown[];
}

/**
 * Records every statement any `pg` client of this process sends (the ORM's pool, the plain pool of the rate
 * limiter and jobs, listeners), by wrapping `pg.Client.prototype.query`: the one door of every statement,
 * whichever library wrote it. A round trip is a statement that waited for PostgreSQL's answer before the
 * connection could send another; statements sent in pipeline mode while an earlier one is in flight share its
 * round trip (`roundTrips` counts them once). Install it before the app opens its pools: each pooled client
 * binds its `query` when it connects (src/db/database-timeouts.ts wraps it with the no-answer deadline).
 */
export class RoundTripRecorder {
  private recording: SentStatement[] | null = null;
  private readonly ids = new WeakMap<pg.Client, number>();
  private readonly inFlight = new WeakMap<pg.Client, number>();
  private nextId = 1;
  private original: typeof pg.Client.prototype.query | null = null;
  private inFlightAnywhere = 0;
  private delays: Array<{ pattern: RegExp; ms: number }> = [];

  /**
   * Answers of statements matching `pattern` reach their caller `ms` later (PostgreSQL answered at once): what
   * a request does while such an answer is outstanding is then plain to see, whatever the machine's speed.
   */
  delayAnswers(pattern: RegExp, ms: number): void {
    this.delays.push({ pattern, ms });
  }

  clearDelays(): void {
    this.delays = [];
  }

  install(): void {
    if (this.original) return;
    const original = pg.Client.prototype.query;
    this.original = original;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const recorder = this;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string; name?: string };
      const sql = typeof config === 'string' ? config : (config?.text ?? '');
      const name = typeof config === 'string' ? undefined : config?.name;
      let id = recorder.ids.get(this);
      if (!id) recorder.ids.set(this, (id = recorder.nextId++));
      const pending = recorder.inFlight.get(this) ?? 0;
      recorder.recording?.push({
        sql,
        connection: id,
        pipelined: pending > 0 && isPipelined(this),
        overlapped: recorder.inFlightAnywhere > 0,
        ...(name ? { name, values: [...((args[1] as unknown[] | undefined) ?? [])] } : {}),
      });
      recorder.inFlight.set(this, pending + 1);
      recorder.inFlightAnywhere++;
      const settle = () => {
        recorder.inFlight.set(this, (recorder.inFlight.get(this) ?? 1) - 1);
        recorder.inFlightAnywhere--;
      };
      const delay = recorder.delays.find((d) => d.pattern.test(sql))?.ms ?? 0;
      const answered = (then: () => void) => (delay ? setTimeout(then, delay) : then());
      // pg.Pool#query calls its client with a callback; the ORM (Kysely) awaits the returned promise.
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (...results: unknown[]) =>
          answered(() => {
            settle();
            (callback as (...r: unknown[]) => void)(...results);
          });
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      }
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (!result || typeof (result as Promise<unknown>).then !== 'function') {
        settle();
        return result;
      }
      return (result as Promise<unknown>).then(
        (value) => new Promise((resolve) => answered(() => (settle(), resolve(value)))),
        (error: unknown) => new Promise((_, reject) => answered(() => (settle(), reject(error)))),
      );
    } as typeof pg.Client.prototype.query;
  }

  uninstall(): void {
    if (this.original) pg.Client.prototype.query = this.original;
    this.original = null;
  }

  /** The statements sent while `action` ran. */
  async during(action: () => Promise<unknown>): Promise<SentStatement[]> {
    this.recording = [];
    try {
      await action();
      return this.recording;
    } finally {
      this.recording = null;
    }
  }
}

function isPipelined(client: pg.Client): boolean {
  return (client as unknown as { pipeline?: boolean }).pipeline === true;
}

/** Round trips of `statements`: every statement but those pipelined behind another of their connection. */
export function roundTrips(statements: readonly SentStatement[]): number {
  return statements.filter((statement) => !statement.pipelined).length;
}

/**
 * Round trips the request waited for one after the other: those sent while nothing else of it was in flight
 * (a statement sent while another is outstanding shares that one's wait).
 */
export function sequentialRoundTrips(statements: readonly SentStatement[]): number {
  return statements.filter((statement) => !statement.pipelined && !statement.overlapped).length;
}

/** A one-line summary per statement, for failure messages and the docs. */
export function describe(statements: readonly SentStatement[]): string[] {
  return statements.map(
    (s) =>
      `#${s.connection}${s.pipelined ? ' (pipelined)' : ''}${s.overlapped ? ' (overlapped)' : ''} ${s.sql.replace(/\s+/g, ' ').slice(0, 140)}`,
  );
}
