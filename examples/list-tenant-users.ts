/**
 * Lists every user of every tenant with the typed client, page after page:
 *
 *   MSP_API_URL=http://127.0.0.1:4000 MSP_API_KEY=svc_sk_test_... node dist/examples/list-tenant-users.js
 */
import { pathToFileURL } from 'node:url';
import { createMspClient, paginate, type MspClient } from '../clients/typescript/src/index.js';

export interface TenantUsers {
  tenant: { id: string; name: string };
  users: Array<{ id: string; userPrincipalName: string; displayName: string }>;
}

export async function listEveryTenantsUsers(client: MspClient, pageSize = 100): Promise<TenantUsers[]> {
  const result: TenantUsers[] = [];
  const tenants = paginate((page) =>
    client.GET('/v1/tenants', { params: { query: { page, limit: pageSize } } }),
  );
  for await (const tenant of tenants) {
    const users: TenantUsers['users'] = [];
    const pages = paginate((page) =>
      client.GET('/v1/tenants/{id}/users', {
        params: { path: { id: tenant.id }, query: { page, limit: pageSize } },
      }),
    );
    for await (const user of pages)
      users.push({ id: user.id, userPrincipalName: user.userPrincipalName, displayName: user.displayName });
    result.push({ tenant: { id: tenant.id, name: tenant.name }, users });
  }
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const token = process.env.MSP_API_KEY;
  if (!token) throw new Error('Set MSP_API_KEY to an API key (Read is enough)');
  const client = createMspClient({ baseUrl: process.env.MSP_API_URL ?? 'http://127.0.0.1:4000', token });
  for (const { tenant, users } of await listEveryTenantsUsers(client)) {
    console.log(`${tenant.name} (${users.length} users)`);
    for (const user of users) console.log(`  ${user.userPrincipalName}  ${user.displayName}`);
  }
}
