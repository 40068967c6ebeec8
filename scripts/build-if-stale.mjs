/**
 * `npm start` (scripts/start.mjs) and `npm run cli` run this before the server or the CLI: it builds (incremental tsc) only when an input of the
 * build changed since the last successful build, so a restart skips tsc entirely (issue #11, item 6).
 *
 * Inputs: every file and folder under tsconfig.build.json's `include` (a folder's mtime changes when a file is
 * added, removed or renamed in it), the tsconfig files and package-lock.json. The stamp `dist/.build-stamp` is
 * written only after tsc succeeded, so a failed build is retried on the next start.
 * `npm run build` runs it with FORCE_BUILD=true (always tsc), so its stamp is current after any build.
 * Plain JavaScript on purpose: it has to run before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const buildConfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8'));

function newestMtime(entry) {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function stampMtime() {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return 0;
  }
}

const started = Date.now();
// `--mark-built` (npm test's `check`): the caller has just compiled every input into dist/ itself (tsc with
// tsconfig.json, which includes all of tsconfig.build.json's and emits the same files), so only the stamp is due.
if (process.argv.includes('--mark-built')) {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  process.exit(0);
}
const inputs = [...buildConfig.include, 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const newestInput = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));
if (process.env.FORCE_BUILD !== 'true' && stampMtime() > newestInput) {
  // `--quiet` (the cli and build scripts): a command's output stays its own.
  if (!process.argv.includes('--quiet'))
    console.error(`build: dist is current (checked in ${Date.now() - started} ms)`);
} else {
  // The first start compiles about 600 files (30 s or more on a small machine): say so, or it looks hung.
  if (!process.argv.includes('--quiet') || stampMtime() === 0)
    console.error(
      stampMtime() === 0
        ? 'build: compiling the TypeScript sources into dist/ (the first time takes a while; later starts skip it)…'
        : 'build: sources changed, compiling…',
    );
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  if (!process.argv.includes('--quiet')) console.error(`build: compiled in ${Date.now() - started} ms`);
}
