import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What a test file on a jest worker's server loads (issue #28 item 7, docs/development.md "Suite time"). Jest gives
 * every file a fresh module registry, so each module a file imports is evaluated again for that file: the app's
 * module graph (`src/schema.ts`, `features.ts`, `tasks.ts`, `app.ts`: about 0.75 s of CPU a file), an entity
 * (MikroORM's modules, about 0.2 s) or an enum registered with type-graphql (its 98 modules, about 75 ms). A file
 * on the shared, realm or live server makes HTTP requests and asks the server for the rest (onServer), so none of
 * that should reach it through its imports or its helpers' (test/helpers, test/factories, the kits). Enums come
 * from the plain `*.enums.ts` modules (their GraphQL registration is in `*.graphql-enums.ts`); the schema's
 * details from the server (test/helpers/server-side-schema.ts) or the committed SDL (committed-schema.ts).
 *
 * Read from the sources: static value imports (`import type`, and imports whose every name is a `type`, are
 * erased by the compiler; a dynamic `import()` loads only when it runs). An import of a type without `type`
 * counts as loaded: write `import type`.
 */
const HEAVY: Array<[what: string, matches: (module: string) => boolean]> = [
  ["the app's module graph", (module) => /^src\/(schema|features|tasks|app)\.ts$/.test(module)],
  ['MikroORM', (module) => module.startsWith('@mikro-orm/')],
  ['type-graphql', (module) => module === 'type-graphql' || module === 'reflect-metadata'],
];

/** Files that still load one of them, and why (each taken off the list once it no longer does). */
const KNOWN: Record<string, string> = {
  // Constants or functions in modules that are services, tasks or entities.
  'test/members/members.test.ts': 'DEMO_MEMBER from src/members/demo-member.ts (MemberService)',
  'test/security-posture/recommendation-apply.test.ts':
    'the apply task and RECOMMENDATION_APPLY_TASK from its task and service modules',
  'test/security-posture/recommendation-dry-run.test.ts':
    'RECOMMENDATION_APPLY_TASK from src/recommendations/recommendation-apply.service.ts',
  'test/sync/conflicting-upstream.test.ts': 'readableSyncFailure from src/tenants/tenant-sync.task.ts',
  'test/operations/metrics.test.ts': 'Plan from organization.entity.ts (organization.enums.ts has it plain)',
  'test/rate-limit/rate-limit.test.ts':
    'Plan from organization.entity.ts (organization.enums.ts has it plain)',
  'test/compliance/connector-statistics.test.ts':
    "a migration's SQL constant: its module imports @mikro-orm/migrations' Migration",
  'test/security/device-recommendation-counts.test.ts':
    "a migration's SQL constant: its module imports @mikro-orm/migrations' Migration",
  'test/jobs/tracked-jobs.test.ts':
    "each tracked job's task name and job kind constants, from its feature's service and task modules",
  // In-process CLI commands need the CLI's program (test/helpers/cli.ts loads reflect-metadata for it).
  'test/cli/users-import-cli.test.ts': 'runCliInProcess from test/helpers/cli.ts',
  'test/client/typed-client.test.ts':
    'OPENAPI_FILE from rest-adapter/openapi/file.ts, whose document builder reads src/core/pagination.ts',
};

/** A file on a worker's server: the shared one, a realm app, the shared live server. */
const ON_A_WORKER_SERVER = /\b(sharedSuite|realmSuite|realmApp|sharedLiveWorld|sharedLiveScenario)\s*\(/;

const IMPORTS = [
  // import X from, import { a, type B } from, import * as X from, import type ... from
  /^\s*import\s+(type\s+)?([\w$*{][^;]*?)\s+from\s+['"]([^'"]+)['"]/gm,
  // export { a } from, export * from, export type { A } from
  /^\s*export\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)\s+from\s+['"]([^'"]+)['"]/gm,
];
const SIDE_EFFECT_IMPORT = /^\s*import\s+['"]([^'"]+)['"]/gm;

/** The modules a source file loads when it is evaluated: repository paths, or package names. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const pattern of IMPORTS)
    for (const [, typeOnly, clause, specifier] of text.matchAll(pattern)) {
      if (typeOnly) continue;
      const names = /\{([^}]*)\}/.exec(clause);
      const hasDefault = !clause.startsWith('{');
      const valueNames = (names?.[1] ?? '')
        .split(',')
        .filter((name) => name.trim() && !/^\s*type\s/.test(name));
      if (hasDefault || valueNames.length > 0 || !names) specifiers.push(specifier);
    }
  for (const [, specifier] of text.matchAll(SIDE_EFFECT_IMPORT)) specifiers.push(specifier);
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('node:')) return [];
    if (!specifier.startsWith('.')) {
      const parts = specifier.split('/');
      return [specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]];
    }
    const target = path.join(path.dirname(file), specifier);
    const source = target.replace(/\.js$/, '.ts');
    return [existsSync(source) ? source : target];
  });
}

/** Every module the file loads, each with the module that imports it first (breadth first: a shortest chain). */
function closure(file: string): Map<string, string | null> {
  const reached = new Map<string, string | null>([[file, null]]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (!current.includes('/') || !/\.(ts|mjs|js|cjs)$/.test(current) || !existsSync(current)) continue;
    for (const imported of valueImports(current))
      if (!reached.has(imported)) {
        reached.set(imported, current);
        queue.push(imported);
      }
  }
  return reached;
}

function chainTo(reached: Map<string, string | null>, module: string): string {
  const chain: string[] = [];
  for (let at: string | null | undefined = module; at; at = reached.get(at)) chain.unshift(at);
  return chain.join(' → ');
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

const onServer = testFiles('test').filter((file) => ON_A_WORKER_SERVER.test(readFileSync(file, 'utf8')));

/** What each file on a worker's server loads of HEAVY, as one chain of imports per kind. */
function heavyLoads(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const file of onServer) {
    const reached = closure(file);
    for (const [what, matches] of HEAVY) {
      const module = [...reached.keys()].find(matches);
      if (module) (found[file] ??= []).push(`${what}: ${chainTo(reached, module)}`);
    }
  }
  return found;
}

describe('a test file on a worker’s server loads neither the app nor MikroORM nor type-graphql', () => {
  const loads = heavyLoads();

  it('holds for every such file but the known ones (the import chain says where it comes from)', () => {
    expect(onServer.length).toBeGreaterThan(100); // the files were found, not an empty list
    const unexpected = Object.fromEntries(Object.entries(loads).filter(([file]) => !(file in KNOWN)));
    expect(unexpected).toEqual({});
  });

  it('lists as known only files that still load one of them', () => {
    expect(Object.keys(KNOWN).filter((file) => !(file in loads))).toEqual([]);
  });

  it('follows the imports that load something, and not those that are types only', () => {
    // The check itself: a helper every server file uses is followed, a type-only import is not.
    const reached = closure('test/hardening/job-limits.test.ts');
    expect(reached.has('test/helpers/shared-suite.ts')).toBe(true);
    expect(reached.has('src/tenants/tenant.entity.ts')).toBe(false); // `import type { Tenant }`
    expect(closure('test/helpers/server-side-schema.ts').has('src/features.ts')).toBe(true);
  });
});
