import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { Envelope, UserBody } from './user-test-kit.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

/** SPEC 2.6 "Deleted user", as GET /api/identity/users/deleted shows it. */
export type DeletedUserBody = ItemOf<'listDeletedUsers'>;

export type PurgedUserBody = DataOf<'permanentlyDeleteUser'>;

export const DAY = 86_400_000;

/** Soft-deletes a user the way a client does (DELETE /v1/tenants/:id/users/:userId), expecting 200. */
export async function softDelete(
  app: TestServer,
  key: string,
  tenant: Tenant,
  user: User,
): Promise<UserBody> {
  const res = await app.request<Envelope<UserBody>>('DELETE', `/v1/tenants/${tenant.id}/users/${user.id}`, {
    key,
  });
  if (res.status !== 200) throw new Error(`delete ${user.id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A request to an /api/identity route in the tenant named by X-Tenant-Id. */
export function identity<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown },
): Promise<ApiResponse<Envelope<T>>> {
  return app.request<Envelope<T>>(method, `/api/identity${path}`, {
    key: options.key,
    body: options.body,
    headers: options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {},
  });
}

export function listDeleted(app: TestServer, key: string, tenantId: string, query = '') {
  return identity<DeletedUserBody[]>(app, 'GET', `/users/deleted${query}`, { key, tenantId });
}

export function restore(app: TestServer, key: string, tenantId: string, userId: string, body?: unknown) {
  return identity<UserBody>(app, 'POST', `/users/${userId}/restore`, { key, tenantId, body });
}

export function purge(app: TestServer, key: string, tenantId: string, userId: string) {
  return identity<PurgedUserBody>(app, 'DELETE', `/users/${userId}/permanent`, { key, tenantId });
}

export async function scalar(app: TestServer, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(sql, params);
  return Number(rows[0].n);
}

/** Whether our users row exists (deleted or not). */
export async function rowExists(app: TestServer, userId: string): Promise<boolean> {
  return (await scalar(app, 'select count(*) as n from users where id = $1', [userId])) === 1;
}
