import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** How long to keep trying, in ms (default 10 s). */
  timeout?: number;
  /** Pause between two attempts, in ms (default 20). */
  interval?: number;
  /**
   * When given, the pause grows by half after each attempt, from `interval` up to this: for a wait whose length
   * is unknown and whose probe is not free (a server start, 2-60 s on the loaded machine, probed by an HTTP
   * request every 50 ms: some 3 s of the test process's CPU per start).
   */
  maxInterval?: number;
  /** What is awaited, for the time-out message ("the sync to finish"). */
  what?: string;
}

/** The error of a wait that ran out of time: names what was awaited and why the last attempt failed. */
export class EventuallyTimeout extends Error {
  override name = 'EventuallyTimeout';
}

/**
 * The one poll-until of the tests: runs `attempt` until it returns without throwing and resolves to what it
 * returned. An attempt says "not yet" by throwing, so an `expect` inside it reads as the condition:
 *
 *   await eventually(async () => expect(await statusOf(id)).toBe('Completed'), { what: 'the sync' });
 *
 * A probe that must stop at a final state returns it instead and lets the caller assert on it, so a Failed
 * job fails the test at once rather than after the time-out:
 *
 *   const status = await eventually(async () => final(await statusOf(id)));
 *   expect(status).toBe('Completed');
 *
 * Past `timeout` it rejects (the test fails) with the last attempt's error as the reason: a wait never ends
 * silently. The first attempt runs at once, and the last one is made at or after the deadline, so even a slow
 * attempt is judged on a fresh result.
 */
export async function eventually<T>(
  attempt: () => T | Promise<T>,
  { timeout = 10_000, interval = 20, maxInterval = interval, what = 'a condition' }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let attempts = 0;
  let pause = interval;
  for (;;) {
    attempts += 1;
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() >= deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new EventuallyTimeout(
          `Timed out after ${timeout} ms (${attempts} attempts) waiting for ${what}: ${reason}`,
          { cause: error },
        );
      }
    }
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    pause = Math.min(maxInterval, Math.ceil(pause * 1.5));
  }
}

/** For probes that are not assertions: throws "not yet" (with `detail`, if given) unless `condition` holds. */
export function check(condition: unknown, detail = 'not yet'): asserts condition {
  if (!condition) throw new Error(detail);
}
