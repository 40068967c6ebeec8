import type { TestServer } from './shared-suite.js';

/**
 * Counts kept by triggers next to a recount from the raw rows, for one organization: each statement takes the
 * organization id as $1 and selects the key columns then the count; both come back as sorted `key … n` lines,
 * so a test compares them with toEqual.
 */
export async function storedAndRecounted(
  app: TestServer,
  organizationId: string,
  statements: { stored: string; recounted: string },
): Promise<{ stored: string[]; recounted: string[] }> {
  const lines = async (sql: string) =>
    (await app.pool.query<Record<string, string | number>>(sql, [organizationId])).rows
      .map((row) => Object.values(row).join(' '))
      .sort();
  return { stored: await lines(statements.stored), recounted: await lines(statements.recounted) };
}
