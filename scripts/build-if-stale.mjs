/**
 * `npm start` (scripts/start.mjs) and `npm run cli` run this before the server or the CLI: it builds (incremental tsc) only when an input of the
 * build changed since the last successful build, so a restart skips tsc entirely (issue #11, item 6).
 *
 * Inputs and staleness: scripts/build-inputs.mjs (the files tsc reads, listed in the stamp `dist/.build-stamp`).
 * The stamp is written only after tsc succeeded, so a failed build is retried on the next start.
 * `npm run build` runs it with FORCE_BUILD=true (always tsc), so its stamp is current after any build.
 * Plain JavaScript on purpose: it has to run before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { markBuilt, staleReason } from './build-inputs.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const started = Date.now();
// `--mark-built` (npm test's `check`): the caller has just compiled every input into dist/ itself (tsc with
// tsconfig.json, which includes all of tsconfig.build.json's and emits the same files), so only the stamp is due.
if (process.argv.includes('--mark-built')) {
  markBuilt(root);
  process.exit(0);
}
const reason = process.env.FORCE_BUILD === 'true' ? 'asked to' : staleReason(root);
if (!reason) {
  // `--quiet` (the cli and build scripts): a command's output stays its own.
  if (!process.argv.includes('--quiet'))
    console.error(`build: dist is current (checked in ${Date.now() - started} ms)`);
} else {
  const firstBuild = !existsSync(path.join(root, 'dist', '.build-stamp'));
  // The first start compiles about 600 files (several seconds on a small machine): say so, or it looks hung.
  if (!process.argv.includes('--quiet') || firstBuild)
    console.error(
      firstBuild
        ? 'build: compiling the TypeScript sources into dist/ (the first time takes a while; later starts skip it)…'
        : `build: sources changed (${reason}), compiling…`,
    );
  // TypeScript 7's native compiler (the typescript-native alias, as in scripts/check.mjs): the same JavaScript as
  // TypeScript 6's tsc in a fifth of the time.
  const tsc = path.join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  markBuilt(root);
  if (!process.argv.includes('--quiet')) console.error(`build: compiled in ${Date.now() - started} ms`);
}
