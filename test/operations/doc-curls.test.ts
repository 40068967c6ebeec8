import { ROUTE_MOUNTS } from '../../src/features.js';
import { docCurls, matchScore } from '../helpers/doc-curls.js';

/**
 * Issue #33 item 9: every REST route has a runnable curl example in the area docs (docs/*.md), so a route
 * added without one fails here. Each example counts for the route it names best (matchScore); a sample of
 * them is run against a started server in readme-smoke.test.ts.
 */
const routes = ROUTE_MOUNTS.flatMap(({ mount, routes: table }) =>
  table.map((route) => ({ method: route.method, path: `${mount}${route.path}` })),
);
const curls = docCurls();

/** The routes a documented request names best (several only when they tie). */
function routesOf(method: string, path: string) {
  // /v1/api/... serves the same routes as /api/...
  const docPath = path.startsWith('/v1/api/') ? path.slice(3) : path;
  const scored = routes
    .filter((route) => route.method === method)
    .map((route) => ({ route, score: matchScore(route.path, docPath) }))
    .filter(({ score }) => score >= 0);
  const best = Math.max(...scored.map(({ score }) => score));
  return scored.filter(({ score }) => score === best).map(({ route }) => route);
}

describe('curl examples in docs/', () => {
  it('has one for every route of the route table', () => {
    const covered = new Set<string>();
    for (const curl of curls)
      for (const route of routesOf(curl.method, curl.path)) covered.add(`${route.method} ${route.path}`);
    const missing = routes.map((route) => `${route.method} ${route.path}`).filter((key) => !covered.has(key));
    expect(missing).toEqual([]);
  });

  it('names only routes that exist (no example of a path or method the server does not serve)', () => {
    const unknown = curls
      .filter((curl) => /^\/(v1|api)\//.test(curl.path) && routesOf(curl.method, curl.path).length === 0)
      .map((curl) => `${curl.file}: ${curl.method} ${curl.path}`);
    expect(unknown).toEqual([]);
  });

  it('sends an Authorization header with every API example', () => {
    const apiCurls = curls.filter((curl) => /^\/(v1|api)\//.test(curl.path));
    expect(
      apiCurls.filter((curl) => !curl.command.includes('Authorization: Bearer ')).map((c) => c.command),
    ).toEqual([]);
  });
});
