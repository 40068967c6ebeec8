/**
 * `npm start` / `npm run cli` compile dist/ only when an input changed (scripts/build-inputs.mjs). What a test
 * or a developer does beside the sources must not count as a change: `npm pack` of clients/typescript rebuilds
 * that package's own dist/ inside `clients`, and a recompile of the root dist/ it used to trigger raced other
 * processes loading it. A throw-away project folder, so the repository's own dist/ is never touched.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain JavaScript on purpose (it runs before anything is compiled); no declarations
import { buildInputs, markBuilt, staleReason } from '../../scripts/build-inputs.mjs';

type Inputs = Array<[string, number]>;
const inputsOf = buildInputs as (root: string) => Inputs;
const reasonOf = staleReason as (root: string) => string | null;
const mark = markBuilt as (root: string) => void;

let root: string;
const write = (relative: string, text = '') => {
  mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  writeFileSync(path.join(root, relative), text);
};
/** Every file of the project dated a minute ago, so that "newer than the stamp" is unambiguous. */
const ageEverything = (relatives: string[]) => {
  const past = new Date(Date.now() - 60_000);
  for (const relative of relatives) utimesSync(path.join(root, relative), past, past);
};

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'msp-build-stamp-'));
  write('tsconfig.json', JSON.stringify({ exclude: ['node_modules', 'dist', 'clients/pkg/dist'] }));
  write('tsconfig.build.json', JSON.stringify({ include: ['src', 'clients', 'test/helpers/shared.ts'] }));
  write('package-lock.json', '{}');
  write('src/app.ts', 'export const a = 1;');
  write('src/data.json', '{}');
  write('src/README.md', 'not read by tsc');
  write('clients/pkg/src/index.ts', 'export {};');
  write('test/helpers/shared.ts', 'export {};');
  mkdirSync(path.join(root, 'dist'));
  ageEverything(inputsOf(root).map(([file]) => file));
  mark(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('build-if-stale: what makes dist/ stale', () => {
  it('lists the files tsc reads, not node_modules, dist, excluded folders or other files', () => {
    write('clients/pkg/dist/index.js');
    write('src/node_modules/x/index.ts');
    expect(inputsOf(root).map(([file]) => file)).toEqual([
      'clients/pkg/src/index.ts',
      'package-lock.json',
      'src/app.ts',
      'src/data.json',
      'test/helpers/shared.ts',
      'tsconfig.build.json',
      'tsconfig.json',
    ]);
  });

  it('is current right after a build, and stays so when a package rebuilds its own dist/ beside the sources', () => {
    expect(reasonOf(root)).toBeNull();
    rmSync(path.join(root, 'clients/pkg/dist'), { recursive: true, force: true });
    write('clients/pkg/dist/index.js', 'export {};');
    write('src/README.md', 'edited, still not an input');
    expect(reasonOf(root)).toBeNull();
  });

  it('is stale when an input is edited, added, removed or renamed, or without a stamp listing them', () => {
    write('src/app.ts', 'export const a = 2;');
    expect(reasonOf(root)).toBe('src/app.ts changed');

    mark(root);
    write('src/added.ts');
    ageEverything(['src/added.ts']);
    expect(reasonOf(root)).toBe('inputs added or removed');

    mark(root);
    rmSync(path.join(root, 'src/data.json'));
    expect(reasonOf(root)).toBe('inputs added or removed');

    writeFileSync(path.join(root, 'dist/.build-stamp'), '2026-11-27T00:00:00.000Z\n');
    expect(reasonOf(root)).toBe('the stamp lists no inputs (an older build)');
    rmSync(path.join(root, 'dist/.build-stamp'));
    expect(reasonOf(root)).toBe('never built');
  });
});
