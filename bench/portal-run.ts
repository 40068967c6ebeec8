/**
 * `npm run -s build && node dist/bench/portal-run.js`: the portal scenario alone (bench/portal-scale.ts), on a
 * fresh bench database, without the main passes. BENCH_PORTAL_TENANTS / BENCH_PORTAL_USERS scale it down;
 * BENCH_PORTAL_KEEP=true keeps the database (and its seeded data) for the next run.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild } from './children.js';
import { loadBenchConfig, productNodeFlags, productServerEnv } from './config.js';
import { openBenchDatabase, type BenchDatabase } from './database.js';
import { formatPortalReport, measurePortalScale, portalSettingsFromEnv } from './portal-scale.js';

const PRODUCT_SCRIPT = path.join(
  path.dirname(path.dirname(fileURLToPath(import.meta.url))),
  'src',
  'main.js',
);
const startedAt = Date.now();
const log = (message: string) =>
  console.log(`[portal bench ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);

/** A product server on the bench database, without the job runner (the scenario runs the recount itself). */
export async function startPortalProduct(database: BenchDatabase) {
  const port = await freePort();
  return startChild({
    name: 'product server',
    script: PRODUCT_SCRIPT,
    port,
    env: productServerEnv(database.url, port),
    nodeArgs: productNodeFlags(),
    readyPath: '/health/ready',
  });
}

const config = loadBenchConfig();
const settings = portalSettingsFromEnv();
const database = await openBenchDatabase(config, { onQuery: () => undefined, log, keep: settings.keep });
try {
  const results = await measurePortalScale({
    orm: database.orm,
    pool: database.pool,
    settings,
    load: {
      connections: config.connections,
      durationSeconds: config.durationSeconds,
      warmupSeconds: config.warmupSeconds,
    },
    startServer: () => startPortalProduct(database),
    log,
  });
  console.log(formatPortalReport(results));
  writeFileSync(path.join(config.dataDir, 'portal-results.json'), JSON.stringify(results, null, 2));
} finally {
  await database.close();
}
process.exit(0);
