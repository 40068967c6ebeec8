/**
 * Every time-based rule reads the time from a Clock, never from `new Date()` directly,
 * so tests can move time (30-day windows, snoozes, rate-limit windows) instead of waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move; used by tests and the demo seed. */
export class MovableClock implements Clock {
  private current: Date;

  constructor(start: Date = new Date()) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date): void {
    this.current = new Date(to);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
