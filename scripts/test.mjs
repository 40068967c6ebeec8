/**
 * `npm test`: the checks of scripts/checks.mjs and jest, with jest started as soon as tsc has compiled dist/ (the
 * tests load it) instead of after ESLint and Prettier too. The two linters start with tsc at a lower priority
 * (nice 10), so they take the CPU that tsc and then jest leave idle: jest's workers wait on PostgreSQL, child
 * processes and timers for some 15% of a clean run's two cores (vmstat), and the linters' ~35 s of CPU fit there
 * instead of holding jest back (docs/development.md "Suite time"). Nothing is skipped: a failed tsc prints its
 * errors and runs no test; the linters' output is printed whole once they and jest have ended; the exit code is
 * non-zero when any of them failed. Arguments go to jest (`npm test -- test/users`).
 */
import { spawn } from 'node:child_process';
import { bin, CHECKS, root, runCheck } from './checks.mjs';

const LINTER_NICENESS = 10;
const [compile, ...linters] = CHECKS;

const linted = Promise.all(linters.map((check) => runCheck(check, { niceness: LINTER_NICENESS })));
const compiled = await runCheck(compile);
process.stdout.write(compiled.output);

let jestCode = 1;
if (compiled.code === 0) {
  jestCode = await new Promise((resolve) => {
    const child = spawn(bin('jest'), process.argv.slice(2), {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules --no-warnings' },
    });
    child.on('error', (error) => {
      process.stderr.write(`jest: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
} else {
  process.stderr.write(`test: ${compile.name} failed (exit code ${compiled.code}); no test was run\n`);
}

let failed = jestCode !== 0 || compiled.code !== 0;
for (const [index, { code, output }] of (await linted).entries()) {
  process.stdout.write(output);
  if (code !== 0) {
    failed = true;
    process.stderr.write(`test: ${linters[index].name} failed (exit code ${code})\n`);
  }
}
process.exit(failed ? 1 : 0);
