import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { GuestFields } from './guest-factory.js';
import { onServer } from '../helpers/on-server.js';
import type { TestServer } from '../helpers/shared-suite.js';
import { identity } from './deleted-user-kit.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

/** SPEC 2.6 "Guest user", as the guest routes show it (DELETE adds deletedAt). */
export type GuestBody = ItemOf<'listGuests'>;

export type StaleGuestBody = ItemOf<'listStaleGuests'>;

export const DAY = 86_400_000;

export function invite(app: TestServer, key: string, tenantId: string, body: unknown) {
  return identity<GuestBody>(app, 'POST', '/users/invite', { key, tenantId, body });
}

export function listGuests(app: TestServer, key: string, tenantId: string, query = '?type=guest') {
  return identity<GuestBody[]>(app, 'GET', `/users${query}`, { key, tenantId });
}

export function resend(app: TestServer, key: string, tenantId: string, userId: string) {
  return identity<GuestBody>(app, 'POST', `/users/${userId}/resend-invite`, { key, tenantId });
}

export function staleGuests(app: TestServer, key: string, tenantId: string, query = '') {
  return identity<StaleGuestBody[]>(app, 'GET', `/users/stale-guests${query}`, { key, tenantId });
}

export function removeGuest(app: TestServer, key: string, tenantId: string, userId: string) {
  return identity<DataOf<'removeGuest'>>(app, 'DELETE', `/users/${userId}`, { key, tenantId });
}

export function simulatedCloud(app: TestServer): SimulatedCloud {
  return app.deps.clouds as SimulatedCloud;
}

export type { GuestFields } from './guest-factory.js';

/** A guest of the tenant as a sync would have brought it (our row and its twin in the simulated cloud). */
export function createGuest(app: TestServer, tenant: Tenant, fields: GuestFields = {}): Promise<User> {
  return onServer(app, 'createGuest', tenant, fields);
}

/** Invitation mails the simulated cloud sent to a guest (its outbox). */
export async function mailsTo(app: TestServer, tenant: Tenant, userExternalId: string) {
  const { rows } = await app.pool.query<{ data: Record<string, unknown> }>(
    `select data from sim_cloud_objects
      where tenant_external_id = $1 and kind = 'invitation_mail' and data->>'userExternalId' = $2
      order by data->>'sentAt'`,
    [tenant.externalId, userExternalId],
  );
  return rows.map((row) => row.data);
}
