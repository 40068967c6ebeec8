/**
 * `npm run check`: the three checks of scripts/checks.mjs side by side rather than one after the other. Each is one
 * single-threaded process, so on two cores the three take about as long as tsc alone plus a share of the linters
 * instead of the sum (docs/development.md "Suite time"); the CPU they use is the same. Each tool's output is
 * printed whole once it ends, in this order, and the exit code is non-zero when any of them failed.
 * (`npm test` runs the same checks, with jest started as soon as tsc has compiled: scripts/test.mjs.)
 */
import { CHECKS, runCheck } from './checks.mjs';

const results = await Promise.all(CHECKS.map((check) => runCheck(check)));
let failed = false;
for (const [index, { code, output }] of results.entries()) {
  process.stdout.write(output);
  if (code !== 0) {
    failed = true;
    process.stderr.write(`check: ${CHECKS[index].name} failed (exit code ${code})\n`);
  }
}
process.exit(failed ? 1 : 0);
