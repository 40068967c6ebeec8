import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Modules a server never uses are not loaded (issue #31 goal 4, docs/benchmarks.md "eighth round, memory and
 * tail"): class-validator's index (every rule, validator.js, libphonenumber-js), rate-limiter-flexible's index
 * (every store) and graphql-jit's serializer (fast-json-stringify, ajv). Each is reached through its module in
 * src/core/perf; a static import of the library anywhere else would load it at start-up again.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const valueImportOf = (library: string) =>
  new RegExp(`^import (?!type )[^;]*from '${library.replace(/[/.-]/g, '\\$&')}'`, 'm');

it.each([
  ['class-validator', 'src/core/perf/class-validator-rules.ts'],
  ['rate-limiter-flexible', 'src/core/perf/rate-limiter-postgres.ts'],
  ['graphql-jit', 'src/core/perf/graphql-jit-serializer.ts'],
])('no source file imports %s but %s (`import type` apart)', (library, only) => {
  const offenders = [...sourceFiles('src'), ...sourceFiles('rest-adapter')].filter(
    (file) => file !== only && valueImportOf(library).test(readFileSync(file, 'utf8')),
  );
  expect(offenders).toEqual([]);
});

/** A child Node loads every module a server loads before its first request (as src/main.ts does), then reports. */
function serverModules(): { files: string[]; serializer: string } {
  const script = `
    import 'reflect-metadata';
    import { createRequire } from 'node:module';
    await Promise.all(['app.js', 'schema.js', 'tasks.js', 'cloud/simulated/index.js', 'db/seeds/demo.js',
      'features.js'].map((file) => import('./dist/src/' + file)));
    const files = Object.keys(createRequire(import.meta.url).cache);
    // The serializer still works when asked for: graphql-jit's customJSONSerializer loads it on first use.
    const { buildSchema, parse } = await import('graphql');
    const { compileQuery } = await import('./dist/src/core/perf/graphql-jit-serializer.js');
    const schema = buildSchema('type Query { hello: String, count: Int }');
    const query = compileQuery(schema, parse('{ hello count }'), undefined, { customJSONSerializer: true });
    const text = query.stringify(await query.query({ hello: 'world', count: 2 }, {}, {}));
    process.stdout.write(JSON.stringify({ files, serializer: text }));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(output) as { files: string[]; serializer: string };
}

it('a server loads none of them before its first request, and graphql-jit’s serializer still works', () => {
  const { files, serializer } = serverModules();
  const loaded = (pattern: RegExp) => files.filter((file) => pattern.test(file));
  // The rules in use are loaded from their own files (a check that the list above is of a real server).
  expect(loaded(/class-validator[/\\]cjs[/\\]decorator[/\\]number[/\\]Max\.js$/)).toHaveLength(1);
  expect(loaded(/rate-limiter-flexible[/\\]lib[/\\]RateLimiterPostgres\.js$/)).toHaveLength(1);
  expect(loaded(/node_modules[/\\]libphonenumber-js[/\\]/)).toEqual([]);
  expect(loaded(/class-validator[/\\]cjs[/\\]index\.js$/)).toEqual([]);
  expect(loaded(/rate-limiter-flexible[/\\]index\.js$|RateLimiterRedis\.js$/)).toEqual([]);
  expect(loaded(/node_modules[/\\](ajv|ajv-formats|fast-uri)[/\\]/)).toEqual([]);
  expect(serializer).toBe('{"data":{"hello":"world","count":2}}');
});
