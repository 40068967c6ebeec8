import { PermissionLevel } from '../../src/core/permissions.js';
import { createMember, createOAuthClient } from '../factories/oauth.js';
import { createApiKey, type OrganizationWithKeys } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { commitEvent, createWebhook } from '../webhooks/webhook-kit.js';

/**
 * The lists added with webhooks, settings and the portal cost a fixed number of SQL statements whatever the
 * page size (no N+1): 12 items of each kind, read at limit=2 and at limit=12.
 */
const ITEMS = 12;

let app: SharedApp;
let org: OrganizationWithKeys;
let webhookId: string;

beforeAll(async () => {
  // No job runner: deliveries stay pending, and the webhooks' public address is never contacted.
  ({ app, org } = await sharedSuite({ webhooks: { resolveHost: async () => ['93.184.215.14'] } }));
  const webhooks = [];
  for (let i = 0; i < ITEMS; i++)
    webhooks.push(
      await createWebhook(app, org.keys.admin, { url: `https://hooks.example.com/${i}`, events: ['*'] }),
    );
  webhookId = webhooks[0].id;
  for (let i = 0; i < ITEMS; i++) await commitEvent(app, org.scope, { details: { i } });
  for (let i = 0; i < ITEMS; i++) {
    await createApiKey(app, org.scope, PermissionLevel.READ);
    await createOAuthClient(app, org.scope, { name: `Client ${i}` });
    await createMember(app, org.organization.id);
  }
}, 60_000);
afterAll(() => app.stop());

it.each([
  ['webhooks', '/v1/webhooks'],
  ['a webhook’s deliveries (with their attempts)', () => `/v1/webhooks/${webhookId}/deliveries`],
  ['API keys', '/api/settings/api-keys'],
  ['OAuth clients', '/api/settings/oauth-clients'],
  ['members', '/api/settings/members'],
])('%s: the same statements at limit=2 and limit=12', async (_name, pathOf) => {
  const path = typeof pathOf === 'function' ? pathOf() : pathOf;
  const read = async (limit: number) => {
    const res = await app.request<{ data: unknown[]; meta: { total: number } }>(
      'GET',
      `${path}?limit=${limit}`,
      {
        key: org.keys.admin,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(limit);
    expect(res.body.meta.total).toBeGreaterThanOrEqual(ITEMS);
  };
  await read(2); // warm-up: the key is verified and cached
  const small = await app.sql.during(() => read(2));
  const large = await app.sql.during(() => read(ITEMS));
  expect(small).toBeGreaterThan(0);
  expect(large).toBe(small);
});

it('GraphQL webhookDeliveries with attempts and payloads: the same statements at limit=2 and limit=12', async () => {
  const query = `query($id: UUID!, $limit: Int) { webhookDeliveries(webhookId: $id, limit: $limit) {
    items { id attempts { attemptNumber } payload { id event details } } } }`;
  const read = async (limit: number) => {
    const res = await app.graphql<{ webhookDeliveries: { items: Array<{ payload: unknown }> } }>(
      org.keys.admin,
      query,
      { id: webhookId, limit },
    );
    expect(res.body.data?.webhookDeliveries.items).toHaveLength(limit);
    expect(res.body.data?.webhookDeliveries.items.every((item) => item.payload !== null)).toBe(true);
  };
  await read(2);
  const small = await app.sql.during(() => read(2));
  const large = await app.sql.during(() => read(ITEMS));
  expect(large).toBe(small);
});
