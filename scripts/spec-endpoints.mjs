/**
 * Writes test/rest/spec-endpoints.txt: the endpoint rows of SPEC 4.1 and 4.2 ("METHOD /path" per line) from the
 * contract (shared/SPEC.md beside the repository, or the file given as the first argument). The coverage test
 * (test/rest/spec-coverage.test.ts) reads the checked-in list, so it also runs in a clone without shared/;
 * run this again when the SPEC changes: `node scripts/spec-endpoints.mjs [path/to/SPEC.md]`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const candidates = process.argv[2] ? [process.argv[2]] : ['../shared/SPEC.md', '../../shared/SPEC.md'];
const specPath = candidates.map((candidate) => path.resolve(candidate)).find((file) => existsSync(file));
if (!specPath) {
  console.error(`SPEC.md not found (tried ${candidates.join(', ')})`);
  process.exit(1);
}
const spec = readFileSync(specPath, 'utf8');

/** `| GET | /tenants/:id | ... |` rows of one section, as "METHOD path" (query strings dropped). */
function rows(heading) {
  const start = spec.indexOf(heading);
  if (start < 0) throw new Error(`${heading} not found in ${specPath}`);
  const end = spec.indexOf('\n### ', start + heading.length);
  return spec
    .slice(start, end)
    .split('\n')
    .map((line) => /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\S+)\s*\|/.exec(line))
    .filter((match) => match !== null)
    .map(([, method, route]) => `${method} ${route.split('?')[0]}`);
}

const text = ['# SPEC 4.1', ...rows('### 4.1'), '# SPEC 4.2', ...rows('### 4.2'), ''].join('\n');
writeFileSync(path.resolve('test/rest/spec-endpoints.txt'), text);
console.log(`Wrote test/rest/spec-endpoints.txt from ${specPath}`);
