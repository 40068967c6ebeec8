import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';

/** The failure envelope of SPEC 2.1 with INVALID_REQUEST naming `field` (and nothing else is checked). */
export function expectInvalid(res: ApiResponse<Envelope>, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({
    success: false,
    error: {
      code: 'INVALID_REQUEST',
      details: { fields: expect.arrayContaining([expect.objectContaining({ field })]) },
    },
  });
}

export function expectEnvelope(res: ApiResponse<Envelope>, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
}

/**
 * Rows of a table, counted across organizations (the scope filter is SQL-level here), or only the given
 * organization's (on the shared server, other files' rows are in the same tables).
 */
export async function rowCount(app: TestServer, table: string, organizationId?: string): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    `select count(*)::int as count from ${table}${organizationId ? ' where organization_id = $1' : ''}`,
    organizationId ? [organizationId] : [],
  );
  return rows[0].count;
}

/** A fingerprint of a table's whole content: equal before and after means nothing was written. */
export async function tableHash(app: TestServer, table: string): Promise<string> {
  const { rows } = await app.pool.query<{ hash: string | null }>(
    `select md5(string_agg(t::text, '|' order by t::text)) as hash from ${table} t`,
  );
  return rows[0].hash ?? '';
}
