import path from 'node:path';

/** The server's configuration, read once from the environment at start-up. */
export interface AppConfig {
  /** HTTP port of the API (REST, GraphQL, OAuth, health). */
  port: number;
  /** External PostgreSQL server; when absent an embedded PostgreSQL is started under `dataDir`. */
  databaseUrl?: string;
  /** Where the embedded PostgreSQL keeps its cluster. Git-ignored. */
  dataDir: string;
  /** Port of the embedded PostgreSQL (only used without DATABASE_URL). */
  embeddedPostgresPort: number;
  logLevel: string;
  /** Number of background jobs one process runs at once. */
  workerConcurrency: number;
  /** Start the background job runner in this process (set to false for a pure API node). */
  runWorker: boolean;
  /** Seed the demo organization when the database is empty. */
  seedDemo: boolean;
  /** Public origin used in links (actionUrl, OAuth); defaults to http://localhost:PORT. */
  publicUrl: string;
  /** Maximum body size of JSON requests in bytes. */
  maxJsonBodyBytes: number;
  /** Let webhooks target private, loopback and link-local addresses (local development and tests). */
  webhookAllowPrivateTargets: boolean;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function boolFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = intFromEnv(env, 'PORT', 4000);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    embeddedPostgresPort: intFromEnv(env, 'EMBEDDED_PG_PORT', 54329),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    workerConcurrency: intFromEnv(env, 'WORKER_CONCURRENCY', 10),
    runWorker: boolFromEnv(env, 'RUN_WORKER', true),
    seedDemo: boolFromEnv(env, 'SEED_DEMO', true),
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    maxJsonBodyBytes: intFromEnv(env, 'MAX_JSON_BODY_BYTES', 1024 * 1024),
    webhookAllowPrivateTargets: boolFromEnv(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
  };
}
