/**
 * Webhook delivery under load: a loopback receiver, a product server running the job queue, and events
 * committed through the one emission point (recordEvent) by this process.
 *  - burst: with the server running, events are recorded in one transaction (as a large tenant sync
 *    would); deliveries per second = events delivered / (last arrival − the commit that made them all
 *    visible), so job pickup is inside the measure and no producer competes with delivery. The goal counts
 *    only if every event arrived.
 *  - steady: events at a fixed rate, one per transaction (as mutations would); event→delivery latency is
 *    from the event's timestamp (taken before its commit) to the receiver's arrival time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { SimulatedCloud } from '../src/cloud/simulated/index.js';
import { createJobContext } from '../src/context.js';
import { systemClock } from '../src/core/clock.js';
import { recordEvent, type EventDeps } from '../src/core/events/record-event.js';
import type { Scope } from '../src/core/scope.js';
import type { AppDeps } from '../src/core/service-context.js';
import { parseSecretsKey, SecretBox } from '../src/core/secret-box.js';
import { OUTBOX_SUBSCRIBERS } from '../src/features.js';
import { WebhookService } from '../src/webhooks/webhook.service.js';
import type { ChildServer } from './children.js';
import { GOALS } from './goals.js';

/** The burst's goal is issue #31's (bench/goals.ts); the steady phase offers events at half that rate. */
export const DELIVERIES_PER_SECOND_GOAL = GOALS.webhookDeliveriesPerSecond;
const STEADY_RATE_PER_SECOND = 500;
export const LATENCY_P99_GOAL_MS = 1000;

export interface DeliverySettings {
  burstEvents: number;
  steadyRatePerSecond: number;
  steadySeconds: number;
  workerConcurrency: number;
}

export interface DeliveryResults {
  settings: DeliverySettings;
  /**
   * A burst committed in one transaction while the server runs: seconds from its commit to the last
   * arrival (job pickup included), and how long recording the events took before that.
   */
  burst: {
    events: number;
    delivered: number;
    seconds: number;
    commitSeconds: number;
    deliveriesPerSecond: number;
  };
  steady: {
    events: number;
    offeredPerSecond: number;
    delivered: number;
    latencyP50Ms: number;
    latencyP99Ms: number;
    latencyMaxMs: number;
  };
  /** Deliveries that arrived more than once (at-least-once; none expected on a healthy run). */
  duplicates: number;
  goals: { deliveriesPerSecondMet: boolean; latencyP99Met: boolean };
}

export function deliverySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const int = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
    return value;
  };
  return {
    burstEvents: int('BENCH_WEBHOOK_BURST', 3000),
    steadyRatePerSecond: int('BENCH_WEBHOOK_RATE', STEADY_RATE_PER_SECOND),
    steadySeconds: int('BENCH_WEBHOOK_SECONDS', 5),
    workerConcurrency: int('BENCH_WORKER_CONCURRENCY', 10),
  };
}

/** A loopback endpoint that notes when each event id first arrived and how long after its timestamp. */
class Receiver {
  readonly firstArrival = new Map<string, { at: number; latencyMs: number }>();
  duplicates = 0;
  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<Receiver> {
    const server = http.createServer({ keepAliveTimeout: 30_000 });
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const now = Date.now();
        const id = String(req.headers['webhook-id']);
        const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        if (receiver.firstArrival.has(id)) receiver.duplicates += 1;
        else receiver.firstArrival.set(id, { at: now, latencyMs: now - Date.parse(timestamp) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/bench`;
  }

  async waitFor(ids: string[], timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let arrived = 0;
    while (Date.now() < deadline) {
      arrived = ids.filter((id) => this.firstArrival.has(id)).length;
      if (arrived === ids.length) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return arrived;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Commits `total` events in one transaction, as a big tenant sync would, and returns their ids and the time
 * just before the commit was sent: from then on every delivery is visible to the workers at once, so the
 * measure starts with job pickup and no producer competes with the deliveries.
 */
async function commitBurst(
  orm: MikroORM,
  scope: Scope,
  total: number,
): Promise<{ ids: string[]; committingAt: number }> {
  let committingAt = 0;
  const ids = await orm.em.fork().transactional(async (tx) => {
    const recorded: string[] = [];
    for (let i = 0; i < total; i++) {
      recorded.push((await recordOne(tx, scope, i)).id);
      // Each event is flushed as it is recorded: forgetting them keeps every flush small.
      if (i % 100 === 99) tx.clear();
    }
    committingAt = Date.now();
    return recorded;
  });
  return { ids, committingAt };
}

const EVENT_DEPS: EventDeps = {
  clock: systemClock,
  publicUrl: 'http://bench.local',
  outboxSubscribers: OUTBOX_SUBSCRIBERS,
};

function recordOne(tx: EntityManager, scope: Scope, n: number) {
  return recordEvent(tx, scope, EVENT_DEPS, {
    kind: 'user.updated',
    severity: 'informational',
    tenant: null,
    details: { bench: true, n },
    actionPath: '/tenants',
  });
}

async function commitEvents(orm: MikroORM, scope: Scope, count: number): Promise<string[]> {
  const em = orm.em.fork();
  return em.transactional(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await recordOne(tx, scope, i)).id);
    return ids;
  });
}

export interface DeliveryBenchOptions {
  orm: MikroORM;
  scope: Scope;
  settings: DeliverySettings;
  /** The SECRETS_KEY of the run's product servers: the webhook's signing secret is sealed with it. */
  secretsKey: string;
  /** Starts the product server with the job queue running and these extra variables. */
  startServer: (env: Record<string, string>) => Promise<ChildServer>;
  log: (message: string) => void;
}

export async function measureWebhookDelivery(options: DeliveryBenchOptions): Promise<DeliveryResults> {
  const { orm, scope, settings, log } = options;
  const receiver = await Receiver.start();
  let server: ChildServer | null = null;
  try {
    // Signing secrets sealed as in production, so every delivery pays for opening its secret; with the run's
    // key, which every product server of the run is given.
    const { secretsKey } = options;
    const deps: AppDeps = {
      clock: systemClock,
      clouds: new SimulatedCloud(orm, systemClock),
      publicUrl: 'http://bench.local',
      outboxSubscribers: OUTBOX_SUBSCRIBERS,
      webhooks: { allowPrivateTargets: true, secretBox: new SecretBox(parseSecretsKey(secretsKey)) },
    };
    await new WebhookService(createJobContext(orm, deps, scope, 'bench')).create({
      url: receiver.url,
      events: ['*'],
    });
    log('  starting a product server with the job queue');
    server = await options.startServer({
      RUN_WORKER: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SECRETS_KEY: secretsKey,
      WORKER_CONCURRENCY: String(settings.workerConcurrency),
    });
    log(`  burst: ${settings.burstEvents} events committed in one transaction while it runs`);
    const commitStart = Date.now();
    const { ids: burstIds, committingAt } = await commitBurst(orm, scope, settings.burstEvents);
    const commitSeconds = (Date.now() - commitStart) / 1000;
    const burstDelivered = await receiver.waitFor(burstIds, 30_000);
    const arrivals = burstIds.map((id) => receiver.firstArrival.get(id)?.at).filter((at) => at !== undefined);
    const burstSeconds = arrivals.length > 0 ? (Math.max(...arrivals) - committingAt) / 1000 : Infinity;

    log(
      `  steady: ${settings.steadyRatePerSecond} events/s for ${settings.steadySeconds} s, one per transaction`,
    );
    const steadyIds: string[] = [];
    const steadyStart = Date.now();
    const total = settings.steadyRatePerSecond * settings.steadySeconds;
    while (steadyIds.length < total) {
      const due = Math.min(
        total,
        Math.floor(((Date.now() - steadyStart) / 1000) * settings.steadyRatePerSecond),
      );
      if (steadyIds.length >= due) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        continue;
      }
      // Commits run a few at a time, as requests of several clients would.
      const batch = Math.min(due - steadyIds.length, 8);
      const ids = await Promise.all(Array.from({ length: batch }, () => commitEvents(orm, scope, 1)));
      steadyIds.push(...ids.flat());
    }
    const offeredSeconds = (Date.now() - steadyStart) / 1000;
    const steadyDelivered = await receiver.waitFor(steadyIds, 10_000);
    const latencies = steadyIds
      .map((id) => receiver.firstArrival.get(id)?.latencyMs)
      .filter((latency): latency is number => latency !== undefined)
      .sort((a, b) => a - b);

    const deliveriesPerSecond = Number.isFinite(burstSeconds) ? Math.round(burstDelivered / burstSeconds) : 0;
    const latencyP99Ms = percentile(latencies, 99);
    return {
      settings,
      burst: {
        events: burstIds.length,
        delivered: burstDelivered,
        seconds: Math.round(burstSeconds * 100) / 100,
        commitSeconds: Math.round(commitSeconds * 100) / 100,
        deliveriesPerSecond,
      },
      steady: {
        events: steadyIds.length,
        offeredPerSecond: Math.round(steadyIds.length / offeredSeconds),
        delivered: steadyDelivered,
        latencyP50Ms: percentile(latencies, 50),
        latencyP99Ms,
        latencyMaxMs: latencies.at(-1) ?? 0,
      },
      duplicates: receiver.duplicates,
      goals: {
        deliveriesPerSecondMet:
          burstDelivered === burstIds.length && deliveriesPerSecond >= DELIVERIES_PER_SECOND_GOAL,
        latencyP99Met: steadyDelivered === steadyIds.length && latencyP99Ms <= LATENCY_P99_GOAL_MS,
      },
    };
  } finally {
    await server?.stop();
    await receiver.stop();
  }
}

export function formatDeliveryReport(results: DeliveryResults): string {
  const { burst, steady, goals, settings } = results;
  return [
    '',
    `Webhook delivery to a loopback receiver (worker concurrency ${settings.workerConcurrency}):`,
    `  burst   ${burst.delivered}/${burst.events} delivered ${burst.seconds} s after their commit (recording took ${burst.commitSeconds} s): ${burst.deliveriesPerSecond} deliveries/s   goal ≥ ${DELIVERIES_PER_SECOND_GOAL}, every event delivered: ${goals.deliveriesPerSecondMet ? 'met' : 'NOT met'}`,
    `  steady  ${steady.offeredPerSecond} events/s offered, ${steady.delivered}/${steady.events} delivered; event→delivery p50 ${steady.latencyP50Ms} ms, p99 ${steady.latencyP99Ms} ms, max ${steady.latencyMaxMs} ms   goal p99 ≤ ${LATENCY_P99_GOAL_MS} ms: ${goals.latencyP99Met ? 'met' : 'NOT met'}`,
    `  duplicates (at-least-once): ${results.duplicates}`,
  ].join('\n');
}
