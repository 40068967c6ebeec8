import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import { identity, scalar } from '../users/deleted-user-kit.js';
import type { Envelope } from '../users/user-test-kit.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';

/** SPEC 2.6 "Contact", as the contact routes show it. */
export type ContactBody = ItemOf<'listContacts'>;

export type ImportReportBody = DataOf<'importContacts'>;

export const contactInput = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  displayName: 'Ada Lovelace',
  email,
  ...extra,
});

export function createContact(app: TestServer, key: string, tenantId: string, body: unknown) {
  return identity<ContactBody>(app, 'POST', '/contacts', { key, tenantId, body });
}

export function listContacts(app: TestServer, key: string, tenantId: string, query = '') {
  return identity<ContactBody[]>(app, 'GET', `/contacts${query}`, { key, tenantId });
}

export function replaceContact(app: TestServer, key: string, tenantId: string, id: string, body: unknown) {
  return identity<ContactBody>(app, 'PUT', `/contacts/${id}`, { key, tenantId, body });
}

export function deleteContact(app: TestServer, key: string, tenantId: string, id: string) {
  return identity<ContactBody>(app, 'DELETE', `/contacts/${id}`, { key, tenantId });
}

/** POST /api/identity/contacts/bulk with a raw text/csv body. */
export function importCsv(
  app: TestServer,
  key: string,
  tenantId: string,
  csv: string,
): Promise<ApiResponse<Envelope<ImportReportBody>>> {
  return app.request<Envelope<ImportReportBody>>('POST', '/api/identity/contacts/bulk', {
    key,
    rawBody: csv,
    headers: { 'X-Tenant-Id': tenantId, 'content-type': 'text/csv' },
  });
}

export function contactRows(app: TestServer, tenantId: string): Promise<number> {
  return scalar(app, 'select count(*) as n from contacts where tenant_id = $1', [tenantId]);
}

/** Contacts of the tenant in the simulated cloud. */
export async function cloudContacts(app: TestServer, tenantExternalId: string) {
  const { rows } = await app.pool.query<{ data: Record<string, unknown> }>(
    `select data from sim_cloud_objects where tenant_external_id = $1 and kind = 'contact'
      order by data->>'mail'`,
    [tenantExternalId],
  );
  return rows.map((row) => row.data);
}
