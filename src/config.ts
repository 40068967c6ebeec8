import { isIP } from 'node:net';
import path from 'node:path';
import { parseSecretsKey } from './core/secret-box.js';
import {
  DEFAULT_APP_DATABASE_ROLE,
  DEFAULT_DATABASE_TIMEOUTS,
  type DatabaseTimeouts,
} from './db/database-defaults.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './http/server-timeouts.js';
import { heartbeatIntervalFor, MIN_STALE_AFTER_MS, STALE_AFTER_MS } from './core/job-worker-liveness.js';
import {
  RESTORE_POLL_MAX_DELAY_MS,
  RESTORE_POLL_MIN_DELAY_FLOOR_MS,
  RESTORE_POLL_MIN_DELAY_MS,
} from './backup/backup.settings.js';
import {
  DEFAULT_MICROSOFT_DEFENDER_URL,
  DEFAULT_MICROSOFT_GRAPH_URL,
  DEFAULT_MICROSOFT_LOGIN_URL,
  parseMicrosoftOrigin,
} from './cloud/microsoft365/microsoft365.settings.js';

/** The server's configuration, read once from the environment at start-up. */
export interface AppConfig {
  /** HTTP port of the API (REST, GraphQL, OAuth, health). */
  port: number;
  /** External PostgreSQL server; when absent an embedded PostgreSQL is started under `dataDir`. */
  databaseUrl?: string;
  /**
   * The non-superuser role the request path SETs ROLE to (row-level security applies to it); created by the
   * start-up step when missing. The DATABASE_URL role is the service role (BYPASSRLS). docs/security-model.md.
   */
  appDatabaseRole: string;
  /**
   * API requests act as `appDatabaseRole` under the row-level security policies (docs/security-model.md).
   * On unless ROW_LEVEL_SECURITY=off (a measurement or an emergency switch; the policies exist either way).
   */
  enforceRowLevelSecurity: boolean;
  /** Where the embedded PostgreSQL keeps its cluster. Git-ignored. */
  dataDir: string;
  /** Port of the embedded PostgreSQL (only used without DATABASE_URL). */
  embeddedPostgresPort: number;
  /** SHARE_DATA_DIR: a second server may run on a data folder another server runs on (db/data-dir-lock.ts). */
  shareDataDir: boolean;
  logLevel: string;
  /** Bearer token of GET /metrics (METRICS_TOKEN); absent: metrics are not served. */
  metricsToken?: string;
  /** Number of background jobs one process runs at once. */
  workerConcurrency: number;
  /** Jobs fetched per query (graphile-worker's local queue, core/jobs.ts); 0 or 1: one query per job. */
  workerLocalQueueSize: number;
  /** JOB_STALE_AFTER_MS: how long another process's silent job worker counts as alive (core/job-worker-liveness.ts). */
  jobStaleAfterMs: number;
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
  /**
   * Which proxies in front of the server to believe about the client's address (X-Forwarded-For), as
   * Express's `trust proxy` setting: false (default: the connecting address is the client), true (every
   * hop), a number of hops, or addresses / CIDR ranges / Express's names (loopback, linklocal, uniquelocal).
   */
  trustProxy: TrustProxySetting;
  /**
   * AES-256-GCM key for secrets stored readable (webhook signing secrets). Absent: with the embedded
   * database a key file in `dataDir` is used (secrets-key.ts); with DATABASE_URL secrets stay plaintext.
   */
  secretsKey?: Buffer;
  /** HTTP_REQUEST_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS (http/server-timeouts.ts). */
  httpTimeouts: HttpTimeouts;
  /** SHUTDOWN_TIMEOUT_MS: the longest a clean stop takes before the process exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * GRAPHQL_STACK_TRACES=true: internal GraphQL errors carry `extensions.stacktrace` (local debugging only).
   * Off unless asked, whatever NODE_ENV says (issue #32 item 8): stack traces name files and internals.
   */
  graphqlStackTraces: boolean;
  /** DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_REQUEST_QUERY_TIMEOUT_MS (db/database-timeouts.ts). */
  databaseTimeouts: DatabaseTimeouts;
  /**
   * MICROSOFT_LOGIN_URL (Entra ID, default https://login.microsoftonline.com) and MICROSOFT_GRAPH_URL (Graph,
   * default https://graph.microsoft.com): https:// origins only, for sovereign clouds and the test fake; a
   * private certificate authority is trusted through NODE_EXTRA_CA_CERTS (docs/microsoft365.md).
   */
  microsoftLoginUrl: string;
  microsoftGraphUrl: string;
  /** MICROSOFT_DEFENDER_URL (Defender for Endpoint's API, default https://api.security.microsoft.com): https only. */
  microsoftDefenderUrl: string;
  /**
   * LIVE_WITHOUT_CLOUD_CONNECTION: what a live environment without a cloud connection acts on, `simulated`
   * (default, development and the demo) or `none` (409 until a connection is saved); docs/microsoft365.md.
   */
  liveWithoutConnection: 'simulated' | 'none';
  /**
   * RESTORE_POLL_MIN_DELAY_MS: the shortest pause between two looks of a restore job at a restore the cloud is
   * still doing (Microsoft 365 Backup's restore sessions; backup/backup.settings.ts), 5 s by default.
   */
  restorePollMinDelayMs: number;
}

/** A value Express accepts for `app.set('trust proxy', …)`. */
export type TrustProxySetting = boolean | number | string[];

/** Express's own names for address ranges (proxy-addr). */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (/^\d{1,3}$/.test(bits)) return Number(bits) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(bits) === 4; // a netmask, which Express accepts too
}

/** TRUST_PROXY: `true`/`false`, a hop count, or a comma list of addresses, CIDR ranges and names. */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  const value = raw?.trim() ?? '';
  if (value === '' || /^(false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !TRUST_PROXY_NAMES.includes(entry) && !isAddressOrRange(entry));
  if (bad !== undefined)
    throw new Error(
      `TRUST_PROXY must be true, false, a number of hops, or a comma list of IP addresses, CIDR ranges ` +
        `and ${TRUST_PROXY_NAMES.join('/')}; "${bad}" is none of these`,
    );
  return entries;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** The embedded PostgreSQL's port; it cannot share the API's (only checked when it is used: no DATABASE_URL). */
function embeddedPortFromEnv(env: NodeJS.ProcessEnv, apiPort: number): number {
  const value = intFromEnv(env, 'EMBEDDED_PG_PORT', 54329);
  if (!env.DATABASE_URL && value === apiPort)
    throw new Error(
      `EMBEDDED_PG_PORT and PORT are both ${value}: the embedded PostgreSQL and the API need a port each`,
    );
  return value;
}

/** Four heartbeats (heartbeatIntervalFor): a live worker must never be taken for dead between two of its beats. */
function staleAfterFromEnv(env: NodeJS.ProcessEnv): number {
  const value = intFromEnv(env, 'JOB_STALE_AFTER_MS', STALE_AFTER_MS);
  if (value < MIN_STALE_AFTER_MS)
    throw new Error(
      `JOB_STALE_AFTER_MS must be at least ${MIN_STALE_AFTER_MS} (four heartbeats of a live worker, ` +
        `${heartbeatIntervalFor(MIN_STALE_AFTER_MS)} ms apart), got ${value}`,
    );
  return value;
}

/** Within the bounds of backup.settings.ts: not a busy loop against the backup service, not past the longest pause. */
function restorePollMinDelayFromEnv(env: NodeJS.ProcessEnv): number {
  const value = intFromEnv(env, 'RESTORE_POLL_MIN_DELAY_MS', RESTORE_POLL_MIN_DELAY_MS);
  if (value < RESTORE_POLL_MIN_DELAY_FLOOR_MS || value > RESTORE_POLL_MAX_DELAY_MS)
    throw new Error(
      `RESTORE_POLL_MIN_DELAY_MS must be between ${RESTORE_POLL_MIN_DELAY_FLOOR_MS} and ` +
        `${RESTORE_POLL_MAX_DELAY_MS} (the longest pause between two looks at a restore), got ${value}`,
    );
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
    appDatabaseRole: env.APP_DATABASE_ROLE || DEFAULT_APP_DATABASE_ROLE,
    enforceRowLevelSecurity: env.ROW_LEVEL_SECURITY !== 'off',
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    embeddedPostgresPort: embeddedPortFromEnv(env, port),
    shareDataDir: boolFromEnv(env, 'SHARE_DATA_DIR', false),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    metricsToken: env.METRICS_TOKEN || undefined,
    workerConcurrency: intFromEnv(env, 'WORKER_CONCURRENCY', 10),
    workerLocalQueueSize: intFromEnv(env, 'WORKER_LOCAL_QUEUE_SIZE', 20),
    jobStaleAfterMs: staleAfterFromEnv(env),
    runWorker: boolFromEnv(env, 'RUN_WORKER', true),
    seedDemo: boolFromEnv(env, 'SEED_DEMO', true),
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    maxJsonBodyBytes: intFromEnv(env, 'MAX_JSON_BODY_BYTES', 1024 * 1024),
    webhookAllowPrivateTargets: boolFromEnv(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    secretsKey: env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined,
    httpTimeouts: {
      requestTimeoutMs: intFromEnv(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs),
      headersTimeoutMs: intFromEnv(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs),
      keepAliveTimeoutMs: intFromEnv(
        env,
        'HTTP_KEEP_ALIVE_TIMEOUT_MS',
        DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs,
      ),
    },
    shutdownTimeoutMs: intFromEnv(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    graphqlStackTraces: boolFromEnv(env, 'GRAPHQL_STACK_TRACES', false),
    databaseTimeouts: {
      connectTimeoutMs: intFromEnv(env, 'DB_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUTS.connectTimeoutMs),
      statementTimeoutMs: intFromEnv(
        env,
        'DB_STATEMENT_TIMEOUT_MS',
        DEFAULT_DATABASE_TIMEOUTS.statementTimeoutMs,
      ),
      requestQueryTimeoutMs: intFromEnv(
        env,
        'DB_REQUEST_QUERY_TIMEOUT_MS',
        DEFAULT_DATABASE_TIMEOUTS.requestQueryTimeoutMs,
      ),
    },
    microsoftLoginUrl: parseMicrosoftOrigin(
      'MICROSOFT_LOGIN_URL',
      env.MICROSOFT_LOGIN_URL,
      DEFAULT_MICROSOFT_LOGIN_URL,
    ),
    microsoftGraphUrl: parseMicrosoftOrigin(
      'MICROSOFT_GRAPH_URL',
      env.MICROSOFT_GRAPH_URL,
      DEFAULT_MICROSOFT_GRAPH_URL,
    ),
    microsoftDefenderUrl: parseMicrosoftOrigin(
      'MICROSOFT_DEFENDER_URL',
      env.MICROSOFT_DEFENDER_URL,
      DEFAULT_MICROSOFT_DEFENDER_URL,
    ),
    liveWithoutConnection: parseLiveWithoutConnection(env.LIVE_WITHOUT_CLOUD_CONNECTION),
    restorePollMinDelayMs: restorePollMinDelayFromEnv(env),
  };
}

function parseLiveWithoutConnection(raw: string | undefined): 'simulated' | 'none' {
  const value = raw?.trim() || 'simulated';
  if (value === 'simulated' || value === 'none') return value;
  throw new Error(`LIVE_WITHOUT_CLOUD_CONNECTION must be "simulated" or "none", got "${value}"`);
}
