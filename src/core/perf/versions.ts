/**
 * The code that reads a library's internals (undocumented fields, private symbols, private tables, message
 * texts) lives in this folder, one file per trick, each naming the library version it was written against.
 * None of it is covered by the library's semver promise, so any release may break it, and some would break it
 * silently (a wrong field name read as `undefined`, the wrong symbol-keyed method called). The table below is
 * checked at start-up (src/main.ts) and by test/core/perf-tricks.test.ts: a version other than the one a
 * trick was verified against stops the server with a message naming the trick and the library.
 *
 * Versions are exact on purpose: package.json pins every dependency exactly, so an installed version only
 * changes when someone bumps it; that bump is when the trick must be read again against the new release (its
 * test named in `verifiedBy` run), and the version here updated. This file imports no library: main.ts loads
 * it before the heavy modules, which it loads in parallel with the database start (docs/performance.md "Cold
 * start").
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PerfTrick {
  /** What the trick does, for the message. */
  name: string;
  /** The file under src/core/perf/ that holds it. */
  file: string;
  /** The npm package whose internals it reads. */
  library: string;
  /** The exact version it was written and verified against. */
  version: string;
  /**
   * The package that loads `library` for the code the trick acts on, when that is not this project itself (the
   * copy npm would nest under it, if versions ever diverged, is the one that matters).
   */
  loadedBy?: string;
  /** The tests that prove the trick still holds on a new version. */
  verifiedBy: string;
}

export const PERF_TRICKS: readonly PerfTrick[] = [
  {
    name: 'plain GraphQL fields read without type-graphql’s per-field wrapper',
    file: 'type-graphql-plain-fields.ts',
    library: 'type-graphql',
    version: '2.0.0-rc.4',
    verifiedBy: 'test/schema/executor-fast-paths.test.ts',
  },
  {
    name: 'a reserved connection whose session settings failed is given back to the pool',
    file: 'kysely-release-connection.ts',
    library: 'kysely',
    version: '0.29.6',
    loadedBy: '@mikro-orm/postgresql',
    verifiedBy: 'test/core/perf-tricks.test.ts, test/rls/session-settings-failure.test.ts',
  },
  {
    name: 'lean reads sent as named prepared statements: a pg query config passed through Kysely’s compiled query',
    file: 'kysely-named-statement.ts',
    library: 'kysely',
    version: '0.29.6',
    loadedBy: '@mikro-orm/postgresql',
    verifiedBy: 'test/core/perf-tricks.test.ts, test/perf/lean-statements.test.ts',
  },
  {
    name: 'lean views built by a generated constructor over a prototype that shadows MikroORM’s accessors',
    file: 'lean-view-constructor.ts',
    library: '@mikro-orm/core',
    version: '7.2.1',
    verifiedBy: 'test/core/lean-columns.test.ts, test/core/lean-timestamps.test.ts, test/licenses',
  },
  {
    name: 'pg rows built by a function generated per column set, uuid arrays split on their commas',
    file: 'pg-row-factory.ts',
    library: 'pg',
    version: '8.23.0',
    verifiedBy: 'test/core/pg-row-factory.test.ts',
  },
  {
    name: 'the locations and paths graphql-jit’s generated code passes to its leaf checks made constants',
    file: 'graphql-jit-leaf-arguments.ts',
    library: 'graphql-jit',
    version: '0.8.9',
    verifiedBy: 'test/core/perf-tricks.test.ts, test/http/graphql-errors.test.ts',
  },
  {
    name: 'class-validator’s rules taken from their own files, without its index (libphonenumber-js, validator.js)',
    file: 'class-validator-rules.ts',
    library: 'class-validator',
    version: '0.15.1',
    verifiedBy: 'test/structure/lazy-modules.test.ts, test/input',
  },
  {
    name: 'rate-limiter-flexible’s PostgreSQL store taken from its own file, without the other stores',
    file: 'rate-limiter-postgres.ts',
    library: 'rate-limiter-flexible',
    version: '11.4.0',
    verifiedBy: 'test/structure/lazy-modules.test.ts, test/rate-limit',
  },
  {
    name: 'graphql-jit’s fast-json-stringify (and ajv) loaded on its first call, not with graphql-jit',
    file: 'graphql-jit-serializer.ts',
    library: 'graphql-jit',
    version: '0.8.9',
    verifiedBy: 'test/structure/lazy-modules.test.ts',
  },
  {
    name: 'the REST dispatch table matches paths with the router’s own route layers',
    file: 'express-route-layers.ts',
    library: 'router',
    version: '2.3.0',
    loadedBy: 'express',
    verifiedBy: 'test/rest/dispatch.test.ts',
  },
  {
    name: 'REST field names taken from graphql-js input coercion messages',
    file: 'graphql-coercion-messages.ts',
    library: 'graphql',
    version: '16.15.0',
    verifiedBy: 'test/core/perf-tricks.test.ts, test/users/users-create.test.ts',
  },
  {
    name: 'queue metrics, dead-worker release and the Retry-After delay of a failing job (DELAY_RETRY) use graphile-worker’s private tables and backoff',
    file: 'graphile-worker-private-tables.ts',
    library: 'graphile-worker',
    version: '0.18.0',
    verifiedBy:
      'test/operations/metrics.test.ts, test/faults/interrupted-job.test.ts, test/cloud/cloud-errors.test.ts',
  },
];

const here = createRequire(import.meta.url);

/** The directory of `library` as Node resolves it from `from` (a `require`), or null when not installed. */
function packageDirectory(from: NodeJS.Require, library: string): string | null {
  // Each package's own package.json, found the way Node looks packages up; `require('<name>/package.json')`
  // would be refused by packages whose `exports` do not list it (type-graphql, kysely, graphile-worker).
  for (const directory of from.resolve.paths(library) ?? []) {
    const candidate = path.join(directory, library);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
  }
  return null;
}

/** The installed version of `library`, as seen from `loadedBy` when given; null when it is not installed. */
export function installedVersion(library: string, loadedBy?: string): string | null {
  let from = here;
  if (loadedBy) {
    const loader = packageDirectory(here, loadedBy);
    if (!loader) return null;
    from = createRequire(path.join(loader, 'package.json'));
  }
  const directory = packageDirectory(from, library);
  if (!directory) return null;
  const manifest = from(path.join(directory, 'package.json')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : null;
}

/** One sentence per trick whose library is not at the version it was written for. */
export function perfTrickVersionProblems(
  tricks: readonly PerfTrick[] = PERF_TRICKS,
  versionOf: (library: string, loadedBy?: string) => string | null = installedVersion,
): string[] {
  return tricks.flatMap((trick) => {
    const installed = versionOf(trick.library, trick.loadedBy);
    if (installed === trick.version) return [];
    const found = installed === null ? 'is not installed' : `is ${installed}`;
    const where = trick.loadedBy ? ` (as loaded by ${trick.loadedBy})` : '';
    return [
      `${trick.library}${where} ${found}, but src/core/perf/${trick.file} (${trick.name}) reads its ` +
        `internals as of ${trick.version}: check the trick against the new version (${trick.verifiedBy}), ` +
        `then update its version in src/core/perf/versions.ts`,
    ];
  });
}

/** Throws, naming every trick and library concerned, unless each library is at its trick's version. */
export function assertPerfTrickVersions(
  tricks: readonly PerfTrick[] = PERF_TRICKS,
  versionOf?: (library: string, loadedBy?: string) => string | null,
): void {
  const problems = perfTrickVersionProblems(tricks, versionOf);
  if (problems.length > 0) {
    throw new Error(
      `a library is not at the version a trick on its internals was written for:\n- ${problems.join('\n- ')}`,
    );
  }
}
