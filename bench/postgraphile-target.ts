/**
 * PostGraphile 5 as a bench target (issue #31 goal 1): installed on first use into bench/postgraphile (its own
 * package.json and lock, never the product's dependencies), run under Node 24 with the amber preset over the
 * bench database (bench/postgraphile/server.mjs), and asked for the same page: the hot tenant's 25 newest users
 * that are not deleted, with the total and each user's license SKU ids.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scope } from '../src/core/scope.js';
import { freePort, startChild, type ChildServer } from './children.js';
import { LICENSES_FIELD } from './user-fields.js';
import type { PageSnapshot } from './verify.js';

/** The repository (dist/bench/… → the repository root). */
const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const POSTGRAPHILE_DIR = path.join(REPOSITORY, 'bench', 'postgraphile');
export const POSTGRAPHILE_SERVER = path.join(POSTGRAPHILE_DIR, 'server.mjs');
const INSTALL_TIMEOUT_MS = 5 * 60_000;

export type Readiness = { ready: true; node: string } | { ready: false; reason: string };

/**
 * A Node 24 binary: the bench's own when it is one (`npm run bench` puts the `node` devDependency first on
 * PATH), else the pinned one in node_modules/node.
 */
function node24(): string | null {
  if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
  const pinned = path.join(REPOSITORY, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(pinned)) return null;
  const version = spawnSync(pinned, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return /^v(2[4-9]|[3-9]\d)\./.test(version) ? pinned : null;
}

function wantedVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(POSTGRAPHILE_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return manifest.dependencies.postgraphile;
}

function installedVersion(): string | null {
  try {
    const file = path.join(POSTGRAPHILE_DIR, 'node_modules', 'postgraphile', 'package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

/**
 * Installs bench/postgraphile's dependencies when they are missing or not the pinned version (`npm ci` from its
 * lock file, through the registry npm is configured with). Offline, the run goes on without the target and says
 * why; nothing else of the bench depends on it.
 */
export function preparePostGraphile(log: (message: string) => void): Readiness {
  const node = node24();
  if (!node) return { ready: false, reason: 'no Node 24 (run `npm install` for the pinned `node` package)' };
  const wanted = wantedVersion();
  if (installedVersion() === wanted) return { ready: true, node };
  log(`Installing PostGraphile ${wanted} into bench/postgraphile (first use; about 300 MB)`);
  const npm = spawnSync(
    'npm',
    [
      'ci',
      '--prefix',
      POSTGRAPHILE_DIR,
      '--no-audit',
      '--no-fund',
      '--fetch-retries=1',
      '--fetch-timeout=30000',
    ],
    {
      encoding: 'utf8',
      timeout: INSTALL_TIMEOUT_MS,
      // npm's own scripts then run on Node 24 too.
      env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` },
    },
  );
  if (npm.status === 0 && installedVersion() === wanted) return { ready: true, node };
  const why = (npm.error?.message ?? npm.stderr ?? '')
    .split('\n')
    .filter((line) => /code|errno|network|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|timed out/i.test(line))
    .slice(0, 2)
    .join(' ')
    .trim();
  return {
    ready: false,
    reason:
      `could not install postgraphile@${wanted} (is the npm registry reachable? ${why || `npm exited ${npm.status}`}); ` +
      'run `npm ci --prefix bench/postgraphile` once online',
  };
}

/**
 * PostGraphile 5 under Node 24 on the bench database, or why it is not measured in this run: the rest of the
 * bench never depends on it. The caller stops the server.
 */
export async function startPostGraphile(
  databaseUrl: string,
  log: (message: string) => void,
  nodeArgs: string[] = [],
): Promise<{ server: ChildServer } | { skipped: string }> {
  if (process.env.BENCH_POSTGRAPHILE === 'false') return { skipped: 'BENCH_POSTGRAPHILE=false' };
  const readiness = preparePostGraphile(log);
  if (!readiness.ready) return { skipped: readiness.reason };
  const port = await freePort();
  try {
    const server = await startChild({
      name: 'PostGraphile 5 server',
      script: POSTGRAPHILE_SERVER,
      execPath: readiness.node,
      nodeArgs,
      port,
      env: { DATABASE_URL: databaseUrl, PORT: String(port), GRAPHILE_ENV: 'production' },
      readyPath: '/health/ready',
      readyTimeoutMs: 120_000,
    });
    return { server };
  } catch (error) {
    return {
      skipped: `it did not start: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`,
    };
  }
}

/** The GraphQL fields of the product's users page, as PostGraphile's amber preset names them. */
function selection(fields: string[]): string {
  return fields
    .map((field) => {
      if (field === 'id') return 'id: rowId'; // the amber preset's `id` is the global node id
      if (field === LICENSES_FIELD)
        return `${LICENSES_FIELD}: licenseAssignmentsByUserId { nodes { skuId } }`;
      return field;
    })
    .join(' ');
}

/**
 * The same rows as the product's page: the tenant's users in the organization's environment, not deleted,
 * newest first (ties by id), with the total and license SKU ids.
 */
export function postgraphileBody(scope: Scope, tenantId: string, limit: number, fields: string[]): string {
  const query = `query BenchUsers($organizationId: UUID!, $environment: String!, $tenantId: UUID!, $first: Int!) {
    allUsers(first: $first, orderBy: [CREATED_AT_DESC, ROW_ID_DESC],
             condition: { organizationId: $organizationId, environment: $environment, tenantId: $tenantId, deletedAt: null }) {
      totalCount
      nodes { ${selection(fields)} }
    }
  }`;
  return JSON.stringify({
    query,
    variables: {
      organizationId: scope.organizationId,
      environment: scope.environment,
      tenantId,
      first: limit,
    },
  });
}

interface PostGraphileAnswer {
  data?: { allUsers?: { totalCount?: number; nodes?: Array<Record<string, unknown>> } };
  errors?: unknown[];
}

/** PostGraphile's answer as a page (license nodes flattened to SKU ids), for the comparison with the floor. */
export async function postgraphileSnapshot(url: string, body: string): Promise<PageSnapshot> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  const answer = JSON.parse(text) as PostGraphileAnswer;
  const users = answer.data?.allUsers;
  if (!response.ok || answer.errors || !Array.isArray(users?.nodes) || typeof users.totalCount !== 'number')
    throw new Error(`PostGraphile: ${response.status} ${text.slice(0, 500)}`);
  const items = users.nodes.map((node) => {
    const licenses = node[LICENSES_FIELD] as { nodes: Array<{ skuId: string }> } | undefined;
    return licenses ? { ...node, [LICENSES_FIELD]: licenses.nodes.map((license) => license.skuId) } : node;
  });
  return { items, total: users.totalCount };
}
