/**
 * The checks `npm test` and `npm run check` run (scripts/test.mjs, scripts/check.mjs): tsc (type-check, and the
 * compile into dist/ the tests and the shared test server load), ESLint and Prettier, each one single-threaded
 * process, and `run`, which runs a command with its output kept to be printed whole once it ends.
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

export const CHECKS = [
  {
    name: 'tsc',
    command: bin('tsc'),
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

/**
 * Runs a command in the repository with its output kept; resolves to its exit code and that output. `niceness` (0-19) lowers its
 * scheduling priority, so that it takes the CPU other processes leave idle.
 */
export function run(command, args, { niceness = 0 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (niceness > 0 && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, niceness);
      } catch {
        // it has already ended, or the system refuses: it runs at the usual priority
      }
    }
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() + (signal ? `${signal}\n` : '') }),
    );
  });
}

/** One check: its command, then its follow-up (tsc's `--mark-built`) when it passed. */
export async function runCheck({ command, args, then }, options) {
  const result = await run(command, args, options);
  if (result.code !== 0 || !then) return result;
  const after = await run(...then);
  return { code: after.code, output: result.output + after.output };
}
