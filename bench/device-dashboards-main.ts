/**
 * The device dashboard scenario alone (`npm run -s build && node dist/bench/device-dashboards-main.js`), for a
 * quick look at reduced scale, e.g. BENCH_DEVICE_TENANTS=100 BENCH_DEVICES=50000 BENCH_USERS=2000
 * BENCH_HOT_TENANT_USERS=100 BENCH_TENANTS=2 BENCH_DURATION=3. `npm run bench` runs it after the users scenario.
 */
import 'reflect-metadata';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChild } from './children.js';
import { loadBenchConfig, productNodeFlags, productServerEnv } from './config.js';
import { openBenchDatabase } from './database.js';
import { runDeviceDashboardScenario } from './device-dashboards.js';
import { scaleData } from './scale-data.js';

const PRODUCT_SCRIPT = path.join(
  path.dirname(path.dirname(fileURLToPath(import.meta.url))),
  'src',
  'main.js',
);
const log = (message: string) => console.log(`[bench devices] ${message}`);

const config = loadBenchConfig();
const database = await openBenchDatabase(config, { onQuery: () => undefined, log });
let exitCode = 0;
try {
  const data = await scaleData(config, database.orm, database.pool, log);
  await runDeviceDashboardScenario({
    config,
    database,
    data,
    log,
    startServer: async () => {
      const port = await freePort();
      return startChild({
        name: 'product server',
        script: PRODUCT_SCRIPT,
        nodeArgs: productNodeFlags(),
        port,
        env: productServerEnv(database.url, port),
        readyPath: '/health/ready',
      });
    },
  });
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
