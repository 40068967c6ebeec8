import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';

/**
 * The route table against SPEC 4.1 and 4.2: the endpoint rows of the contract, kept in the repository as
 * test/rest/spec-endpoints.txt (written from the contract by scripts/spec-endpoints.mjs, so the test runs in any
 * clone); prints how many of the paths are served, and holds the README to the same numbers.
 */
function specRoutes(section: string): string[] {
  const lines = readFileSync(path.resolve('test/rest/spec-endpoints.txt'), 'utf8').split('\n');
  const start = lines.indexOf(`# ${section}`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('# '));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((line) => line.trim() !== '')
    .map((line) => normalise(line.replace(' /api/', ' /')));
}

const normalise = (route: string) => route.replace(/:[A-Za-z]+|\{[A-Za-z]+\}/g, ':param');

const served = {
  versioned: new Set(VERSIONED_ROUTES.map((route) => normalise(`${route.method} ${route.path}`))),
  feature: new Set(FEATURE_ROUTES.map((route) => normalise(`${route.method} ${route.path}`))),
};
const sections = [
  { name: 'SPEC 4.1 (/v1)', routes: specRoutes('SPEC 4.1'), table: served.versioned },
  { name: 'SPEC 4.2 (/api)', routes: specRoutes('SPEC 4.2'), table: served.feature },
];
const total = sections.reduce((sum, section) => sum + section.routes.length, 0);
const covered = sections.reduce((sum, s) => sum + s.routes.filter((route) => s.table.has(route)).length, 0);

it('reads both endpoint tables of the SPEC', () => {
  expect(sections[0].routes.length).toBe(15);
  expect(sections[1].routes.length).toBeGreaterThan(60);
});

it('prints the coverage of SPEC 4.1/4.2 by the route table', () => {
  const lines = sections.map(({ name, routes, table }) => {
    const missing = routes.filter((route) => !table.has(route));
    return `${name}: ${routes.length - missing.length} of ${routes.length} served${missing.length ? `; not yet: ${missing.join(', ')}` : ''}`;
  });
  console.log(`REST coverage: ${covered} of ${total} SPEC paths\n${lines.join('\n')}`);
  expect(sections[0].routes.filter((route) => !sections[0].table.has(route))).toEqual([]);
});

it('is stated truthfully in the README', () => {
  const readme = readFileSync(path.resolve('README.md'), 'utf8');
  const stated = /REST serves (\d+) of the (\d+) endpoints of SPEC 4\.1\/4\.2/.exec(readme);
  expect(stated?.slice(1, 3).map(Number)).toEqual([covered, total]);
});
