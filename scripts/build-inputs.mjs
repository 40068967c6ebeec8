/**
 * What `dist/` is built from, and whether it is current (scripts/build-if-stale.mjs). Plain JavaScript on
 * purpose: it runs before anything is compiled.
 *
 * Inputs are the files tsc reads, not folders: every .ts/.mts/.cts/.tsx/.json file under tsconfig.build.json's
 * `include` (skipping node_modules, dist and tsconfig's `exclude`), the tsconfig files and package-lock.json.
 * The stamp lists them, so an input added, removed or renamed makes dist stale, as does one newer than the
 * stamp. Folder mtimes are not used: `npm pack` of clients/typescript (test/client/client-package.test.ts)
 * rebuilds that package's own dist/ inside `clients`, which changed the folder's mtime, so the next
 * `npm start` or `npm run cli` of another test recompiled the root dist/ while other test processes were
 * loading it ("does not provide an export named …" in start-refusals, seen with three jest workers).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(ts|mts|cts|tsx|json)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);

/** Every input of the build under `root`, relative paths with their mtimes, sorted by path. */
export function buildInputs(root) {
  const buildConfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8'));
  const baseConfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
  const excluded = new Set((baseConfig.exclude ?? []).map((entry) => path.normalize(entry)));
  const inputs = new Map();
  const visit = (relative, explicit) => {
    if (excluded.has(path.normalize(relative))) return;
    let stats;
    try {
      stats = statSync(path.join(root, relative));
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      if (SKIPPED_FOLDERS.has(path.basename(relative))) return;
      for (const child of readdirSync(path.join(root, relative))) visit(path.join(relative, child), false);
    } else if (explicit || SOURCE.test(relative)) {
      inputs.set(relative, stats.mtimeMs);
    }
  };
  for (const entry of buildConfig.include) visit(entry, true);
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) visit(file, true);
  return [...inputs.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
}

const stampPath = (root) => path.join(root, 'dist', '.build-stamp');

/** Why dist/ under `root` must be compiled again, or null when it is current. */
export function staleReason(root) {
  let stamp;
  try {
    stamp = { mtimeMs: statSync(stampPath(root)).mtimeMs, text: readFileSync(stampPath(root), 'utf8') };
  } catch {
    return 'never built';
  }
  let listed;
  try {
    listed = JSON.parse(stamp.text).inputs;
  } catch {
    listed = undefined;
  }
  if (!Array.isArray(listed)) return 'the stamp lists no inputs (an older build)';
  const inputs = buildInputs(root);
  if (listed.length !== inputs.length || inputs.some(([file], index) => listed[index] !== file))
    return 'inputs added or removed';
  // `>=`: file times advance by the kernel's tick, not per write, so an edit made within the tick the stamp was
  // written in carries the stamp's own time; compiling once too often is the safe side.
  const newer = inputs.find(([, mtimeMs]) => mtimeMs >= stamp.mtimeMs);
  return newer ? `${newer[0]} changed` : null;
}

/** Records that dist/ under `root` was just compiled from its current inputs. */
export function markBuilt(root) {
  const inputs = buildInputs(root).map(([file]) => file);
  writeFileSync(stampPath(root), `${JSON.stringify({ builtAt: new Date().toISOString(), inputs })}\n`);
}
