import type { Scope } from '../../src/core/scope.js';
import { explainAnalyze } from './list-plan.js';
import type { TestServer } from './shared-suite.js';

/**
 * A search statement a request sent, planned as it ran (the application role under the policies, `scope`): no
 * sequential scan of users, and the whole statement touches less than a quarter of the table's pages. The
 * search functions' own reads (SECURITY DEFINER, their trigram index) count in the plan's buffers, although
 * EXPLAIN shows no nodes inside them. The table must be big enough for that to mean something (over 200 pages).
 */
export async function expectSearchTouchesFewUserPages(
  app: TestServer,
  statement: string,
  scope: Scope,
): Promise<void> {
  const plan = await explainAnalyze(app, statement, scope, { buffers: true });
  expect(JSON.stringify(plan)).not.toMatch(/"Node Type":"Seq Scan","[^}]*"Relation Name":"users"/);
  const [{ pages }] = (
    await app.pool.query<{ pages: number }>(`select relpages as pages from pg_class where relname = 'users'`)
  ).rows;
  const touched = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  expect(pages).toBeGreaterThan(200);
  expect(touched).toBeLessThan(pages / 4);
}
