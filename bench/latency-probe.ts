/**
 * Where a request waits (issue #31 goal 1 and 3), loaded into a server under test with
 * `node --import <dist>/bench/latency-probe.js` (bench/ab-run.ts, BENCH_AB_TIMELINE=1): node built-ins only, so
 * it loads into the product and into PostGraphile 5 alike. Per request, from the `request` event to the
 * response's `finish`: when its first SQL statement was issued, when its last answer arrived, and the time from
 * there to the answer written (the rate-limit count's statements, on `rate_limits`, apart); beside them the event
 * loop's delay and utilisation and the garbage collector's pauses over the same time. SIGUSR2 starts a
 * measurement (forgets what came before); the next SIGUSR2 writes the summary as JSON to LATENCY_PROBE_FILE
 * (default <tmp>/latency-probe-<pid>.json, where bench/ab-timeline.ts reads it).
 * pg is found from the server's main script (`pg.Client.prototype.query`, every statement's one door).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

interface Timeline {
  start: number;
  firstSql?: number;
  lastSqlDone?: number;
  rateLimitSql: number;
  rateLimitDone?: number;
  statements: number;
}

const file = process.env.LATENCY_PROBE_FILE ?? path.join(os.tmpdir(), `latency-probe-${process.pid}.json`);
const store = new AsyncLocalStorage<Timeline>();
const samples: Array<{ total: number; toSql: number; sql: number; afterSql: number; statements: number }> =
  [];
const gcPauses: Array<{ kind: number; ms: number }> = [];
let rateLimitWaits: number[] = [];
const delay = monitorEventLoopDelay({ resolution: 1 });
let elu = performance.eventLoopUtilization();
let measuring = false;

const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]): boolean {
  if (event !== 'request') return emit.call(this, event, ...args);
  const timeline: Timeline = { start: performance.now(), rateLimitSql: 0, statements: 0 };
  const res = args[1] as http.ServerResponse;
  res.once('finish', () => {
    if (!measuring || timeline.firstSql === undefined || timeline.lastSqlDone === undefined) return;
    const end = performance.now();
    samples.push({
      total: end - timeline.start,
      toSql: timeline.firstSql - timeline.start,
      sql: timeline.lastSqlDone - timeline.firstSql,
      afterSql: end - timeline.lastSqlDone,
      statements: timeline.statements,
    });
    if (timeline.rateLimitDone !== undefined)
      rateLimitWaits.push(Math.max(0, timeline.rateLimitDone - timeline.lastSqlDone));
  });
  return store.run(timeline, () => emit.call(this, event, ...args));
} as typeof http.Server.prototype.emit;

/** Marks a statement of the current request issued now and answered when `done` settles. */
function track(text: unknown, done: (callback: () => void) => void): void {
  const timeline = store.getStore();
  if (!timeline) return;
  const isRateLimit = typeof text === 'string' && text.includes('rate_limits');
  const now = performance.now();
  if (isRateLimit) timeline.rateLimitSql++;
  else {
    timeline.statements++;
    timeline.firstSql ??= now;
  }
  done(() => {
    const at = performance.now();
    if (isRateLimit) timeline.rateLimitDone = at;
    else timeline.lastSqlDone = at;
  });
}

try {
  const require = createRequire(path.resolve(process.argv[1] ?? 'index.js'));
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]): unknown {
    const first = args[0] as { text?: string } | string;
    const text = typeof first === 'string' ? first : first?.text;
    const last = args.length - 1;
    let settle: (() => void) | undefined;
    track(text, (callback) => (settle = callback));
    if (settle && typeof args[last] === 'function') {
      const callback = args[last] as (...results: unknown[]) => void;
      const mark = settle;
      args[last] = (...results: unknown[]) => {
        mark();
        callback(...results);
      };
      settle = undefined;
    }
    const result = query.apply(this, args);
    if (settle && result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(settle, settle);
    return result;
  };
} catch (error) {
  console.error(`latency probe: pg not found (${String(error)}); SQL times not measured`);
}

new PerformanceObserver((list) => {
  if (!measuring) return;
  for (const entry of list.getEntries())
    gcPauses.push({
      kind: (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0,
      ms: entry.duration,
    });
}).observe({ entryTypes: ['gc'] });

const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
};
const stats = (values: number[]) => ({
  mean: Math.round((values.reduce((sum, value) => sum + value, 0) / (values.length || 1)) * 100) / 100,
  p50: quantile(values, 0.5),
  p99: quantile(values, 0.99),
});
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };

process.on('SIGUSR2', () => {
  if (!measuring) {
    samples.length = 0;
    gcPauses.length = 0;
    rateLimitWaits = [];
    delay.reset();
    delay.enable();
    elu = performance.eventLoopUtilization();
    measuring = true;
    return;
  }
  measuring = false;
  delay.disable();
  const utilisation = performance.eventLoopUtilization(elu);
  const byKind: Record<string, { count: number; totalMs: number; maxMs: number }> = {};
  for (const { kind, ms } of gcPauses) {
    const entry = (byKind[GC_KINDS[kind] ?? String(kind)] ??= { count: 0, totalMs: 0, maxMs: 0 });
    entry.count++;
    entry.totalMs = Math.round((entry.totalMs + ms) * 10) / 10;
    entry.maxMs = Math.max(entry.maxMs, Math.round(ms * 10) / 10);
  }
  writeFileSync(
    file,
    JSON.stringify({
      requests: samples.length,
      statements: stats(samples.map((sample) => sample.statements)).mean,
      totalMs: stats(samples.map((sample) => sample.total)),
      toFirstSqlMs: stats(samples.map((sample) => sample.toSql)),
      sqlMs: stats(samples.map((sample) => sample.sql)),
      afterSqlMs: stats(samples.map((sample) => sample.afterSql)),
      rateLimitAfterPageMs: stats(rateLimitWaits),
      eventLoopDelayMs: {
        mean: Math.round(delay.mean / 1e4) / 100,
        p50: delay.percentile(50) / 1e6,
        p99: delay.percentile(99) / 1e6,
        max: delay.max / 1e6,
      },
      eventLoopUtilisation: Math.round(utilisation.utilization * 1000) / 1000,
      busyMsPerRequest: Math.round((utilisation.active / (samples.length || 1)) * 1000) / 1000,
      gc: byKind,
    }),
  );
});
