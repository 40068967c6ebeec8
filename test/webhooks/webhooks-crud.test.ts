import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import type { Envelope } from '../helpers/envelope.js';
import { TestApp } from '../helpers/test-app.js';
import { commitEvent, createWebhook, waitForDeliveries, type WebhookBody } from './webhook-kit.js';

/** A DNS the test controls: names resolve to whatever the test says at that moment. */
const dns = new Map<string, string[]>([
  ['hooks.example.com', ['93.184.215.14']],
  ['mixed.example.com', ['93.184.215.14', '10.1.2.3']],
  ['rebinding.example.com', ['93.184.215.14']],
  ['internal.example.com', ['192.168.1.20']],
  ['localhost', ['127.0.0.1', '::1']],
]);

let app: TestApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => {
  app = await TestApp.start({
    jobs: true,
    webhooks: {
      resolveHost: async (host) => {
        const addresses = dns.get(host);
        if (!addresses) throw new Error(`ENOTFOUND ${host}`);
        return addresses;
      },
      retryScheduleMs: [],
      timeoutMs: 500,
    },
  });
  org = await createOrganizationWithKeys(app);
  other = await createOrganizationWithKeys(app);
});
afterAll(() => app.stop());

async function webhookRows(): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>('select count(*)::int as count from webhooks');
  return rows[0].count;
}

const VALID = {
  url: 'https://hooks.example.com/msp',
  events: ['security.*', 'user.created'],
  headers: { Authorization: 'Bearer abc' },
};

describe('REST /v1/webhooks', () => {
  it('creates (201) with the wire fields of DECISIONS and the secret, once', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await app.request<Envelope<WebhookBody>>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { ...VALID, filter: { tenantIds: [tenant.id], minSeverity: 'medium' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      url: VALID.url,
      events: VALID.events,
      filter: { tenantIds: [tenant.id], minSeverity: 'medium' },
      headers: VALID.headers,
      enabled: true,
      createdAt: app.clock.now().toISOString(),
    });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(res.body.data)).toEqual(
      expect.arrayContaining(['id', 'url', 'events', 'filter', 'headers', 'enabled', 'secret', 'createdAt']),
    );

    const read = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${res.body.data.id}`, {
      key: org.keys.admin,
    });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: res.body.data.id, headers: VALID.headers });
    expect(read.body.data).not.toHaveProperty('secret');
  });

  it('lists newest first with the page meta; header values are redacted without Admin', async () => {
    const before = await app.request<Envelope<WebhookBody[]>>('GET', '/v1/webhooks', { key: org.keys.read });
    app.clock.advance(1000);
    const newest = await createWebhook(app, org.keys.admin, VALID);
    const res = await app.request<Envelope<WebhookBody[]>>('GET', '/v1/webhooks?limit=1', {
      key: org.keys.read,
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 1, total: before.body.meta!.total + 1 });
    expect(res.body.data[0]).toMatchObject({ id: newest.id, headers: { Authorization: '[redacted]' } });
    expect(res.body.data[0]).not.toHaveProperty('secret');
  });

  it('PATCH changes the given fields only', async () => {
    const webhook = await createWebhook(app, org.keys.admin, VALID);
    const res = await app.request<Envelope<WebhookBody>>('PATCH', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
      body: { events: ['*'], filter: { minSeverity: 'high' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      url: VALID.url,
      events: ['*'],
      filter: { tenantIds: [], minSeverity: 'high' },
      headers: VALID.headers,
    });
  });

  it('DELETE needs an Admin key, answers the deleted webhook, and then 404', async () => {
    const webhook = await createWebhook(app, org.keys.admin, VALID);
    const refused = await app.request<Envelope<unknown>>('DELETE', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.write,
    });
    expect(refused.status).toBe(403);
    const res = await app.request<Envelope<WebhookBody>>('DELETE', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(webhook.id);
    const gone = await app.request<Envelope<unknown>>('GET', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(gone.status).toBe(404);
  });

  it('creating needs Admin (it returns a secret); reading needs Read', async () => {
    const byWrite = await app.request<Envelope<unknown>>('POST', '/v1/webhooks', {
      key: org.keys.write,
      body: VALID,
    });
    expect(byWrite.status).toBe(403);
    expect(byWrite.body.error?.code).toBe('FORBIDDEN');
    const byRead = await app.request<Envelope<unknown>>('GET', '/v1/webhooks', { key: org.keys.read });
    expect(byRead.status).toBe(200);
    const anonymous = await app.request<Envelope<unknown>>('GET', '/v1/webhooks');
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 for another organization’s webhook and its deliveries, and never lists them', async () => {
    const theirs = await createWebhook(app, other.keys.admin, VALID);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${theirs.id}`],
      ['PATCH', `/v1/webhooks/${theirs.id}`],
      ['DELETE', `/v1/webhooks/${theirs.id}`],
      ['POST', `/v1/webhooks/${theirs.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${theirs.id}/test`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries`],
    ] as const) {
      const res = await app.request<Envelope<unknown>>(method, path, {
        key: org.keys.admin,
        body: method === 'PATCH' ? { enabled: false } : undefined,
      });
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    const list = await app.request<Envelope<WebhookBody[]>>('GET', '/v1/webhooks?limit=100', {
      key: org.keys.admin,
    });
    expect(list.body.data.map((w) => w.id)).not.toContain(theirs.id);
    // The live environment is another world too.
    const live = await app.request<Envelope<unknown>>('GET', `/v1/webhooks/${theirs.id}`, {
      key: other.liveAdminKey,
    });
    expect(live.status).toBe(404);
    expect((await app.request('GET', `/v1/webhooks/${theirs.id}`, { key: other.keys.read })).status).toBe(
      200,
    );
  });

  it('answers 404 for a path id that is not a UUID', async () => {
    const res = await app.request<Envelope<unknown>>('GET', '/v1/webhooks/not-a-uuid', {
      key: org.keys.read,
    });
    expect(res.status).toBe(404);
  });
});

describe('bad input: 400 INVALID_REQUEST naming the field, nothing written', () => {
  it.each([
    ['a missing url', { events: ['*'] }, 'url'],
    ['a missing events list', { url: VALID.url }, 'events'],
    ['a url of another scheme', { ...VALID, url: 'ftp://hooks.example.com/x' }, 'url'],
    ['a relative url', { ...VALID, url: '/hook' }, 'url'],
    ['credentials in the url', { ...VALID, url: 'https://user:pass@hooks.example.com/x' }, 'url'],
    ['an empty events list', { ...VALID, events: [] }, 'events'],
    [
      'an event kind that does not exist',
      { ...VALID, events: ['user.created', 'user.craeted'] },
      'events[1]',
    ],
    ['an event pattern with bad characters', { ...VALID, events: ['User Created'] }, 'events[0]'],
    // GraphQL coerces a lone value into a list of one, which is then not a kind.
    ['events given as one string', { ...VALID, events: 'user.created,user.deleted' }, 'events[0]'],
    ['an unknown severity', { ...VALID, filter: { minSeverity: 'urgent' } }, 'filter.minSeverity'],
    ['a tenant id that is not a UUID', { ...VALID, filter: { tenantIds: ['abc'] } }, 'filter.tenantIds.0'],
    [
      'a tenant of nobody',
      { ...VALID, filter: { tenantIds: ['00000000-0000-4000-8000-000000000000'] } },
      'filter.tenantIds[0]',
    ],
    [
      'a reserved header',
      { ...VALID, headers: { 'webhook-signature': 'v1,forged' } },
      'headers.webhook-signature',
    ],
    ['a header value that is not a string', { ...VALID, headers: { 'X-Count': 3 } }, 'headers.X-Count'],
    ['a header with a line break', { ...VALID, headers: { 'X-A': 'a\r\nInjected: yes' } }, 'headers.X-A'],
    ['a header name with a space', { ...VALID, headers: { 'X A': 'a' } }, 'headers.X A'],
    ['an unknown field', { ...VALID, colour: 'blue' }, 'colour'],
    ['enabled of the wrong type', { ...VALID, enabled: 'yes' }, 'enabled'],
  ])('refuses %s', async (_case, body, field) => {
    const before = await webhookRows();
    const res = await app.request<Envelope<unknown>>('POST', '/v1/webhooks', { key: org.keys.admin, body });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect((res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toContain(field);
    expect(await webhookRows()).toBe(before);
  });

  it('refuses a tenant of another organization in the filter', async () => {
    const theirs = await createTenant(app, other.scope);
    const res = await app.request<Envelope<unknown>>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { ...VALID, filter: { tenantIds: [theirs.id] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      { field: 'filter.tenantIds[0]', problem: 'is not a tenant of this organization' },
    ]);
  });

  it('refuses null for fields PATCH cannot clear, and leaves the webhook as it was', async () => {
    const webhook = await createWebhook(app, org.keys.admin, VALID);
    const res = await app.request<Envelope<unknown>>('PATCH', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
      body: { url: null, events: null },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      { field: 'url', problem: 'cannot be null' },
      { field: 'events', problem: 'cannot be null' },
    ]);
    const read = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(read.body.data).toMatchObject({ url: VALID.url, events: VALID.events });
  });
});

describe('private targets (SSRF)', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['loopback by name', 'http://localhost/hook'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['private 10/8', 'https://10.0.0.5/hook'],
    ['private 172.16/12', 'https://172.20.1.1/hook'],
    ['private 192.168/16', 'https://192.168.0.10/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['IPv6 unique local', 'http://[fd00::1]/hook'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['the unspecified address', 'http://0.0.0.0/hook'],
    ['a name resolving to a private address', 'https://internal.example.com/hook'],
    ['a name with one private address among public ones', 'https://mixed.example.com/hook'],
    ['a name that does not resolve', 'https://nowhere.example.com/hook'],
  ])('refuses %s with 400 naming url', async (_case, url) => {
    const before = await webhookRows();
    const res = await app.request<Envelope<unknown>>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { ...VALID, url },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([{ field: 'url', problem: expect.any(String) as string }]);
    expect(await webhookRows()).toBe(before);
  });

  it('checks the address again at delivery time (DNS rebinding), and refuses to connect', async () => {
    const webhook = await createWebhook(app, org.keys.admin, {
      url: 'http://rebinding.example.com:9/hook',
      events: ['user.created'],
    });
    dns.set('rebinding.example.com', ['127.0.0.1']);
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all[0]?.status === 'Failed',
    );
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: null,
      error: 'refused: rebinding.example.com now resolves to non-public address 127.0.0.1',
    });
  });
});

describe('GraphQL', () => {
  const CREATE = /* GraphQL */ `
    mutation ($input: CreateWebhookInput!) {
      createWebhook(input: $input) {
        id
        url
        events
        filter {
          tenantIds
          minSeverity
        }
        headers
        enabled
        secret
        createdAt
      }
    }
  `;

  it('creates, reads, lists, updates, rotates and deletes', async () => {
    const created = await app.graphql<{ createWebhook: WebhookBody }>(org.keys.admin, CREATE, {
      input: { url: VALID.url, events: ['alert.*'], filter: { minSeverity: 'HIGH' } },
    });
    expect(created.body.errors).toBeUndefined();
    const webhook = created.body.data!.createWebhook;
    expect(webhook).toMatchObject({
      events: ['alert.*'],
      filter: { minSeverity: 'HIGH', tenantIds: [] },
      enabled: true,
    });
    expect(webhook.secret).toMatch(/^whsec_/);

    const listed = await app.graphql<{
      webhooks: { items: Array<{ id: string }>; pageInfo: { total: number } };
    }>(org.keys.read, '{ webhooks(limit: 100) { items { id } pageInfo { total } } }');
    expect(listed.body.data!.webhooks.items.map((w) => w.id)).toContain(webhook.id);

    const updated = await app.graphql<{ updateWebhook: WebhookBody }>(
      org.keys.admin,
      'mutation ($id: UUID!) { updateWebhook(id: $id, input: { enabled: false, headers: null }) { enabled headers } }',
      { id: webhook.id },
    );
    expect(updated.body.data!.updateWebhook).toEqual({ enabled: false, headers: {} });

    const rotated = await app.graphql<{ rotateWebhookSecret: { secret: string } }>(
      org.keys.admin,
      'mutation ($id: UUID!) { rotateWebhookSecret(id: $id) { secret } }',
      { id: webhook.id },
    );
    expect(rotated.body.data!.rotateWebhookSecret.secret).not.toBe(webhook.secret);

    const deleted = await app.graphql<{ deleteWebhook: { id: string } }>(
      org.keys.admin,
      'mutation ($id: UUID!) { deleteWebhook(id: $id) { id } }',
      { id: webhook.id },
    );
    expect(deleted.body.data!.deleteWebhook.id).toBe(webhook.id);
    const gone = await app.graphql(org.keys.admin, 'query ($id: UUID!) { webhook(id: $id) { id } }', {
      id: webhook.id,
    });
    expect(gone.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('reports bad input with the field, and another organization’s webhook as NOT_FOUND', async () => {
    const bad = await app.graphql(org.keys.admin, CREATE, {
      input: { url: 'http://127.0.0.1/x', events: ['nope.*'] },
    });
    expect(bad.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(
      (bad.body.errors?.[0].extensions.details?.fields as Array<{ field: string }>).map((f) => f.field),
    ).toEqual(['url', 'events[0]']);
    const theirs = await createWebhook(app, other.keys.admin, VALID);
    const res = await app.graphql(org.keys.admin, 'mutation ($id: UUID!) { deleteWebhook(id: $id) { id } }', {
      id: theirs.id,
    });
    expect(res.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('shows the delivery log with attempts and the payload, in one page of queries', async () => {
    const webhook = await createWebhook(app, org.keys.admin, {
      url: 'http://hooks.example.com:9/x',
      events: ['user.*'],
    });
    const eventId = await commitEvent(app, org.scope, { kind: 'user.deleted' });
    await waitForDeliveries(app, org.keys.read, webhook.id, (all) => all[0]?.status === 'Failed');
    const res = await app.graphql<{
      webhookDeliveries: {
        items: Array<{ eventId: string; status: string; attempts: unknown[]; payload: { event: string } }>;
      };
    }>(
      org.keys.read,
      `query ($id: UUID!) { webhookDeliveries(webhookId: $id) { items { eventId status attempts { attemptNumber error } payload { event } } } }`,
      { id: webhook.id },
    );
    expect(res.body.data!.webhookDeliveries.items).toEqual([
      {
        eventId,
        status: 'FAILED',
        attempts: [{ attemptNumber: 1, error: expect.any(String) as string }],
        payload: { event: 'user.deleted' },
      },
    ]);
  });
});
