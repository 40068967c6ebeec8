/**
 * Builds the package for `npm pack` (run by `prepack`): JavaScript and declarations into dist/, plus the
 * generated schema.d.ts, which tsc does not copy (a declaration file is an input, not an output).
 * Uses the TypeScript of the repository (this folder has no node_modules of its own).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(path.join(here, 'dist'), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json')], {
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
copyFileSync(path.join(here, 'src', 'schema.d.ts'), path.join(here, 'dist', 'schema.d.ts'));
