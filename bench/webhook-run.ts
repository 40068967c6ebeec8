/**
 * `npm run -s build && node_modules/.bin/node dist/bench/webhook-run.js`: the webhook delivery scenario alone
 * (bench/webhook-delivery.ts) on a fresh bench database, without the main passes; for comparing changes to
 * delivery. BENCH_WEBHOOK_DISTS=<dist>,<dist>,… runs it once per build (each a folder holding `src/main.js`,
 * e.g. this `dist` and a copy taken before a change), alternately BENCH_ROUNDS times, on the same database.
 * The data is small (BENCH_USERS defaults to 2,000 here): delivery reads events and webhooks, not users.
 * The events are recorded (and fanned out, queuing the delivery jobs) by this process with this build's code: a
 * build whose jobs differ (before the endpoint batches of the sixth round, which queue `{webhookId}` jobs) is
 * compared by running its own `bench/webhook-run.js` in turn instead.
 */
import 'reflect-metadata';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild, type ChildServer } from './children.js';
import { loadBenchConfig, productNodeFlags, productServerEnv } from './config.js';
import { openBenchDatabase } from './database.js';
import { scaleData } from './scale-data.js';
import { deliverySettingsFromEnv, formatDeliveryReport, measureWebhookDelivery } from './webhook-delivery.js';
import { SecretBox } from '../src/core/secret-box.js';

const DIST = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const startedAt = Date.now();
const log = (message: string) =>
  console.log(`[webhooks ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);

process.env.BENCH_USERS ??= '2000';
process.env.BENCH_HOT_TENANT_USERS ??= '500';
const config = loadBenchConfig();
const dists = (process.env.BENCH_WEBHOOK_DISTS ?? DIST).split(',').map((dist) => path.resolve(dist));
const secretsKey = SecretBox.generateKey();
const database = await openBenchDatabase(config, { onQuery: () => undefined, log });
const children: ChildServer[] = [];
try {
  const data = await scaleData(config, database.orm, database.pool, log);
  const rates = new Map<string, number[]>(dists.map((dist) => [dist, []]));
  for (let round = 1; round <= config.rounds; round++) {
    for (const dist of dists) {
      // Each measurement adds its own webhook (to its own receiver): the earlier ones must not take events.
      await database.pool.query('update webhooks set enabled = false');
      const results = await measureWebhookDelivery({
        orm: database.orm,
        scope: data.scope,
        settings: deliverySettingsFromEnv(),
        secretsKey,
        startServer: async (env) => {
          const port = await freePort();
          const child = await startChild({
            name: `product ${dist}`,
            script: path.join(dist, 'src', 'main.js'),
            port,
            env: { ...productServerEnv(database.url, port), SECRETS_KEY: secretsKey, ...env },
            nodeArgs: productNodeFlags(),
            readyPath: '/health/ready',
          });
          children.push(child);
          return child;
        },
        log,
      });
      log(`round ${round}, ${dist}:\n${formatDeliveryReport(results)}`);
      rates.get(dist)!.push(results.burst.deliveriesPerSecond);
    }
  }
  for (const [dist, values] of rates)
    console.log(`${dist}: burst deliveries/s per round ${values.join(', ')}`);
} finally {
  await Promise.allSettled(children.map((child) => child.stop()));
  await database.close();
}
process.exit(0);
