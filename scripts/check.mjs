/**
 * `npm run check` (the first half of `npm test`): tsc (type-check, and the compile into dist/ the tests and the
 * shared test server load), ESLint and Prettier, side by side rather than one after the other. Each is one
 * single-threaded process, so on two cores the three take about as long as tsc alone plus a share of the linters
 * instead of the sum (docs/development.md "Suite time"); the CPU they use is the same. Each tool's output is
 * printed whole once it ends, in this order, and the exit code is non-zero when any of them failed.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// TypeScript 7 (the native compiler, under the alias typescript-native): it type-checks and emits dist/ in about
// 4 s where TypeScript 6's tsc took 21 s, with the same JavaScript out (docs/development.md "Suite time").
// TypeScript 6 stays for what needs its JavaScript API (ts-jest, typescript-eslint, openapi-typescript).
const nativeTsc = path.join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');

const CHECKS = [
  {
    name: 'tsc',
    command: nativeTsc,
    args: ['-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo-check'],
    // dist/ was just compiled from every input of the build: `npm run build` / `npm start` can skip tsc.
    then: [process.execPath, [path.join(root, 'scripts', 'build-if-stale.mjs'), '--mark-built']],
  },
  {
    name: 'eslint',
    command: bin('eslint'),
    args: ['--cache', '--cache-location', 'node_modules/.cache/msp-lint/eslint/', '.'],
  },
  {
    name: 'prettier',
    command: bin('prettier'),
    args: ['--check', '--cache', '--cache-location', 'node_modules/.cache/msp-lint/prettier-cache', '.'],
  },
];

/** Runs a command in the repository with its output kept; resolves to its exit code and that output. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() + (signal ? `${signal}\n` : '') }),
    );
  });
}

const results = await Promise.all(
  CHECKS.map(async ({ command, args, then }) => {
    const result = await run(command, args);
    if (result.code !== 0 || !then) return result;
    const after = await run(...then);
    return { code: after.code, output: result.output + after.output };
  }),
);
let failed = false;
for (const [index, { code, output }] of results.entries()) {
  process.stdout.write(output);
  if (code !== 0) {
    failed = true;
    process.stderr.write(`check: ${CHECKS[index].name} failed (exit code ${code})\n`);
  }
}
process.exit(failed ? 1 : 0);
