import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Settings of one bench run, from the environment (all optional). */
export interface BenchConfig {
  /** Where the embedded PostgreSQL cluster and results.json live. */
  dataDir: string;
  /** Port of the bench's own embedded PostgreSQL (kept apart from the dev server's 54329). */
  postgresPort: number;
  /** An existing PostgreSQL server to use instead of the embedded one (its `bench` database is recreated). */
  databaseUrl?: string;
  /** Seconds of measured load per target. */
  durationSeconds: number;
  /** Seconds of unmeasured load per target before it is measured. */
  warmupSeconds: number;
  /** Seconds of unmeasured load on every target once, before the first round (0: none). */
  primeSeconds: number;
  connections: number;
  /** Connections of the second, heavier pass. */
  highConnections: number;
  /** Interleaved rounds of the main pass (every target once per round). */
  rounds: number;
  tenants: number;
  users: number;
  /** Users of the tenant the requests read. */
  hotTenantUsers: number;
  pageSize: number;
  /** Write a V8 CPU profile of the product server child (for finding where the time goes). */
  cpuProfile: boolean;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const config: BenchConfig = {
    dataDir: path.resolve(env.BENCH_DATA_DIR || '.data/bench'),
    postgresPort: positiveInt(env, 'BENCH_PG_PORT', 54339),
    databaseUrl: env.BENCH_DATABASE_URL || undefined,
    durationSeconds: positiveInt(env, 'BENCH_DURATION', 10),
    warmupSeconds: positiveInt(env, 'BENCH_WARMUP', 2),
    // BENCH_PRIME=0 turns the priming off (a quick run).
    primeSeconds: env.BENCH_PRIME === '0' ? 0 : positiveInt(env, 'BENCH_PRIME', 5),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 10),
    highConnections: positiveInt(env, 'BENCH_HIGH_CONNECTIONS', 32),
    rounds: positiveInt(env, 'BENCH_ROUNDS', 2),
    tenants: positiveInt(env, 'BENCH_TENANTS', 100),
    users: positiveInt(env, 'BENCH_USERS', 100_000),
    hotTenantUsers: positiveInt(env, 'BENCH_HOT_TENANT_USERS', 2_000),
    pageSize: positiveInt(env, 'BENCH_PAGE_SIZE', 25),
    cpuProfile: ['1', 'true', 'yes'].includes((env.BENCH_CPU_PROFILE ?? '').toLowerCase()),
  };
  if (config.tenants < 2) throw new Error('BENCH_TENANTS must be at least 2 (one hot tenant and the others)');
  if (config.hotTenantUsers >= config.users)
    throw new Error('BENCH_HOT_TENANT_USERS must be smaller than BENCH_USERS');
  if (config.pageSize > 100) throw new Error('BENCH_PAGE_SIZE must be at most 100 (the API maximum)');
  return config;
}

/** The folder of the project's package.json, found upwards from this file (bench/ when run by jest, dist/bench/ else). */
function projectRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('package.json not found above bench/config');
    folder = parent;
  }
  return folder;
}

/** `[K=V …] exec node [flags …] <script>`: the form of package.json's `start` and `serve` scripts. */
export const SERVER_COMMAND = /^((?:\w+=\S+ )*)exec node (.*?)(scripts\/start\.mjs|dist\/src\/main\.js)$/;

/**
 * The server's Node flags and environment as package.json's `serve` script writes them, the one place they are
 * set (docs/performance.md "Memory"): the bench measures the server as `npm start` runs it, and
 * test/operations/start-flags.test.ts keeps `start` equal to `serve`.
 */
function serveCommand(): { flags: string[]; env: Record<string, string> } {
  const { scripts } = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const match = SERVER_COMMAND.exec(scripts.serve ?? '');
  if (!match)
    throw new Error(
      `package.json's "serve" script does not read "[K=V …] exec node [flags] dist/src/main.js"`,
    );
  return { env: envPairs(match[1]), flags: match[2].split(/\s+/).filter((flag) => flag !== '') };
}

const SERVE = serveCommand();

/** The V8 flags of `npm start` and `npm run serve`. */
export const PRODUCT_NODE_FLAGS: readonly string[] = SERVE.flags;

/**
 * The environment `npm start` and `npm run serve` set before Node starts (glibc reads it at start-up, so it cannot be
 * set from inside the process), e.g. MALLOC_ARENA_MAX.
 */
export const PRODUCT_ENV: Readonly<Record<string, string>> = SERVE.env;

/** The flags the bench starts the product with: PRODUCT_NODE_FLAGS, or BENCH_PRODUCT_NODE_FLAGS to compare others. */
export function productNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  const override = env.BENCH_PRODUCT_NODE_FLAGS;
  return override === undefined
    ? [...PRODUCT_NODE_FLAGS]
    : override.split(/\s+/).filter((flag) => flag !== '');
}

/** `K=V K=V` pairs (BENCH_PRODUCT_ENV, BENCH_AB_BASELINE_ENV). */
export function envPairs(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** The environment the bench adds for the product: PRODUCT_ENV, or BENCH_PRODUCT_ENV (`K=V …`, or empty) to compare. */
export function productEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const override = env.BENCH_PRODUCT_ENV;
  return override === undefined ? { ...PRODUCT_ENV } : envPairs(override);
}

/**
 * A bench product server's environment: the bench database, its port, no demo seed, no job worker (the bench
 * drives requests only), warnings only, then `extra` (by default the PRODUCT_ENV of `productEnvironment`).
 */
export function productServerEnv(
  databaseUrl: string,
  port: number,
  extra: Record<string, string> = productEnvironment(),
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    SEED_DEMO: 'false',
    RUN_WORKER: 'false',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
