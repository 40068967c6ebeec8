import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { Envelope } from '../helpers/envelope.js';
import type { ItemOf } from '../helpers/api-types.js';

/** A request to /api/user-management-identity/users... in the tenant named by X-Tenant-Id. */
export function um<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown; csv?: string },
): Promise<ApiResponse<Envelope<T>>> {
  const headers: Record<string, string> = options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {};
  if (options.csv !== undefined) headers['content-type'] = 'text/csv';
  return app.request<Envelope<T>>(method, `/api/user-management-identity/users${path}`, {
    key: options.key,
    body: options.body,
    rawBody: options.csv,
    headers,
  });
}

export type ManagedUserBody = ItemOf<'searchUsers'>;

/** Sets columns of a users row that the factory does not take (last sign-in, mail, type). */
export async function setUserColumns(
  app: TestServer,
  userId: string,
  columns: { last_sign_in_at?: Date | null; email?: string | null; user_type?: string },
): Promise<void> {
  const entries = Object.entries(columns);
  await app.pool.query(
    `update users set ${entries.map(([column], index) => `${column} = $${index + 2}`).join(', ')} where id = $1`,
    [userId, ...entries.map(([, value]) => value)],
  );
}
