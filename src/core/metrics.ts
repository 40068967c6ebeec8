import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import { QUEUE_SAMPLE } from './perf/graphile-worker-private-tables.js';

/**
 * The process's Prometheus metrics (docs/operations.md). One registry per process: the HTTP server, the
 * rate limiter and the job tasks all record into it, and GET /metrics renders it. Recording is in-memory
 * only (no SQL on the hot path); the job queue and the pools are sampled when Prometheus scrapes.
 */
export const metricsRegistry = new Registry();
// Event loop lag (nodejs_eventloop_lag_seconds), heap, GC, CPU: prom-client's standard process metrics.
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by method, route template (never the raw path) and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const graphqlOperations = new Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations executed, by operation name, type and outcome (ok | error)',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests refused by the rate limiter (429), by caller kind: credential (organization window) or ip',
  labelNames: ['caller'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (succeeded | failed)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'webhook_delivery_duration_seconds',
  help: 'Time from sending a webhook delivery to its answer (or failure), by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/**
 * Operation names are chosen by clients: past this many distinct names, new ones are counted as "other" so
 * a client sending random names cannot grow the registry without bound.
 */
const MAX_OPERATION_NAMES = 500;
const seenOperationNames = new Set<string>();

const operationCounters = new Map<string, { inc(): void }>();

export function recordGraphQLOperation(name: string | null | undefined, type: string, ok: boolean): void {
  let operation = name || 'anonymous';
  if (!seenOperationNames.has(operation)) {
    if (seenOperationNames.size >= MAX_OPERATION_NAMES) operation = 'other';
    else seenOperationNames.add(operation);
  }
  const outcome = ok ? 'ok' : 'error';
  // prom-client hashes a label object (sorted keys, joined) on every inc: 0.9% of a GraphQL request's CPU.
  // The children are bounded like the names (MAX_OPERATION_NAMES × types × outcomes).
  const key = `${operation}\u0000${type}\u0000${outcome}`;
  let child = operationCounters.get(key);
  if (!child) {
    child = graphqlOperations.labels({ operation, type, outcome });
    operationCounters.set(key, child);
  }
  child.inc();
}

export function recordWebhookAttempt(succeeded: boolean, latencyMs: number): void {
  const labels: LabelValues<'outcome'> = { outcome: succeeded ? 'succeeded' : 'failed' };
  webhookDeliveryAttempts.inc(labels);
  webhookDeliveryDuration.observe(labels, latencyMs / 1000);
}

/** Pools sampled at scrape time, with their names ("api" for the server's pool). */
const sampledPools = new Map<pg.Pool, string>();

/** The newest registered pool: graphile-worker's tables are read through it once per scrape. */
const queuePool = (): pg.Pool | undefined => [...sampledPools.keys()].at(-1);

/** Registers a server's pool: its usage is reported, and the job queue is read through it at scrape time. */
export function sampleDatabase(name: string, pool: pg.Pool): void {
  sampledPools.set(pool, name);
}

/** Forgets a pool that is closing (tests start and stop several servers in one process). */
export function stopSampling(pool: pg.Pool): void {
  sampledPools.delete(pool);
}

new Gauge({
  name: 'pg_pool_connections',
  help: 'PostgreSQL pool connections by state: total (open), idle, waiting (clients queued for one)',
  labelNames: ['pool', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [sampled, pool] of sampledPools) {
      this.set({ pool, state: 'total' }, sampled.totalCount);
      this.set({ pool, state: 'idle' }, sampled.idleCount);
      this.set({ pool, state: 'waiting' }, sampled.waitingCount);
    }
  },
});

interface QueueSample {
  task: string;
  depth: number;
  oldest_age_seconds: number;
}

let lastQueueSample: Promise<QueueSample[]> | null = null;
/** Both queue gauges collect in the same scrape: one query serves them. */
function sampleQueue(): Promise<QueueSample[]> {
  if (!lastQueueSample) {
    const pool = queuePool();
    lastQueueSample = pool
      ? pool.query<QueueSample>(QUEUE_SAMPLE).then((result) => result.rows)
      : Promise.resolve([]);
    void lastQueueSample.finally(() => setImmediate(() => (lastQueueSample = null))).catch(() => undefined);
  }
  return lastQueueSample;
}

new Gauge({
  name: 'job_queue_depth',
  help: 'Background jobs waiting to run (queued or scheduled, not running), by task',
  labelNames: ['task'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const row of await sampleQueue()) this.set({ task: row.task }, row.depth);
  },
});

new Gauge({
  name: 'job_queue_oldest_age_seconds',
  help: 'How long the oldest due job of each task has waited past its run time',
  labelNames: ['task'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const row of await sampleQueue()) this.set({ task: row.task }, row.oldest_age_seconds);
  },
});
