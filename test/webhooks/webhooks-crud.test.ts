import { randomUUID } from 'node:crypto';
import { Permission } from '../../src/core/permissions.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import {
  createOrganizationWithKeys as createOrganization,
  createTenant,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  commitEvent,
  createWebhook,
  waitForDeliveries,
  type DeliveryBody,
  type WebhookBody,
  type WebhookWithSecretBody,
} from './webhook-kit.js';

/**
 * An address the URL guard takes for public. No test here connects to it: events are committed only in
 * organizations whose webhooks point at names that, by delivery time, resolve to loopback, so every attempt is
 * refused before a connection is opened (the last test checks that).
 */
const PUBLIC_ADDRESS = '93.184.215.14';
const DNS_TIMEOUT_MS = 300;

/** A DNS the test controls: names resolve to whatever the test says at that moment. */
const dns = new Map<string, string[]>([
  ['hooks.example.com', [PUBLIC_ADDRESS]],
  ['mixed.example.com', [PUBLIC_ADDRESS, '10.1.2.3']],
  ['rebinding.example.com', [PUBLIC_ADDRESS]],
  ['internal.example.com', ['192.168.1.20']],
  ['localhost', ['127.0.0.1', '::1']],
]);
/** Names whose DNS server never answers. */
const HANGING = new Set(['hang.example.com']);

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
/** This file's organizations: other files' rows are in the same tables (the jest worker's shared server). */
const organizationIds: string[] = [];

/** A new organization of this file's. */
async function createOrganizationWithKeys(server: SharedApp): Promise<OrganizationWithKeys> {
  const made = await createOrganization(server);
  organizationIds.push(made.organization.id);
  return made;
}

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({
    jobs: true,
    webhooks: {
      resolveHost: (host) => {
        if (HANGING.has(host)) return new Promise<string[]>(() => undefined);
        const addresses = dns.get(host);
        return addresses ? Promise.resolve(addresses) : Promise.reject(new Error(`ENOTFOUND ${host}`));
      },
      resolveTimeoutMs: DNS_TIMEOUT_MS,
      retryScheduleMs: [],
      timeoutMs: 500,
    },
    other: true,
  }));
  organizationIds.push(org.organization.id, other.organization.id);
});
afterAll(() => app.stop());

/** The webhooks of the organization under test, where a refused create would have written one. */
async function webhookRows(): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    'select count(*)::int as count from webhooks where organization_id = $1',
    [org.organization.id],
  );
  return rows[0].count;
}

/**
 * A webhook whose host resolves to a public address when it is created and to loopback afterwards (DNS
 * rebinding): its deliveries exist and are attempted, and every attempt is refused before connecting.
 */
async function unreachableWebhook(
  adminKey: string,
  events: string[],
): Promise<WebhookBody & { secret: string }> {
  const host = `w-${randomUUID().slice(0, 8)}.example.com`;
  dns.set(host, [PUBLIC_ADDRESS]);
  const webhook = await createWebhook(app, adminKey, { url: `https://${host}/hook`, events });
  dns.set(host, ['127.0.0.1']);
  return webhook as WebhookBody & { secret: string };
}

const settled = (deliveries: DeliveryBody[]) =>
  deliveries.length > 0 && deliveries.every((delivery) => delivery.status !== 'Pending');

const VALID = {
  url: 'https://hooks.example.com/msp',
  events: ['security.*', 'user.created'],
  headers: { Authorization: 'Bearer abc' },
};

describe('REST /v1/webhooks', () => {
  it('creates (201) with the wire fields of DECISIONS and the secret, once', async () => {
    const tenant = await createTenant(app, org.scope);
    const res = await app.request<Envelope<WebhookWithSecretBody>>('POST', '/v1/webhooks', {
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
    const theirs = await unreachableWebhook(other.keys.admin, ['*']);
    const ping = await app.request<Envelope<DeliveryBody>>('POST', `/v1/webhooks/${theirs.id}/test`, {
      key: other.keys.write,
    });
    expect(ping.status).toBe(202);
    const theirDelivery = ping.body.data.id;
    const mine = await createWebhook(app, org.keys.admin, VALID);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${theirs.id}`],
      ['PATCH', `/v1/webhooks/${theirs.id}`],
      ['DELETE', `/v1/webhooks/${theirs.id}`],
      ['POST', `/v1/webhooks/${theirs.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${theirs.id}/test`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries`],
      ['GET', `/v1/webhooks/${theirs.id}/deliveries/${theirDelivery}`],
      ['POST', `/v1/webhooks/${theirs.id}/deliveries/${theirDelivery}/resend`],
      // Our own webhook does not make their delivery ours.
      ['GET', `/v1/webhooks/${mine.id}/deliveries/${theirDelivery}`],
      ['POST', `/v1/webhooks/${mine.id}/deliveries/${theirDelivery}/resend`],
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
    // They exist, for their owner.
    expect((await app.request('GET', `/v1/webhooks/${theirs.id}`, { key: other.keys.read })).status).toBe(
      200,
    );
    const owned = await app.request<Envelope<DeliveryBody>>(
      'GET',
      `/v1/webhooks/${theirs.id}/deliveries/${theirDelivery}`,
      { key: other.keys.read },
    );
    expect(owned.status).toBe(200);
    expect(owned.body.data.event).toBe('webhook.test');
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
    // Values Node's HTTP client refuses (ERR_INVALID_CHAR) would fail every delivery: refused at once.
    ['a header value with a control character', { ...VALID, headers: { 'X-A': 'a\u0001b' } }, 'headers.X-A'],
    ['a header value with DEL', { ...VALID, headers: { 'X-A': 'a\u007fb' } }, 'headers.X-A'],
    ['a header value with a NUL', { ...VALID, headers: { 'X-A': 'a\u0000b' } }, 'headers.X-A'],
    ['a header value beyond Latin-1', { ...VALID, headers: { 'X-A': 'price: 5 €' } }, 'headers.X-A'],
    ['a header value with an emoji', { ...VALID, headers: { 'X-A': 'ok 👍' } }, 'headers.X-A'],
    ['an overlong header value', { ...VALID, headers: { 'X-A': 'x'.repeat(1025) } }, 'headers.X-A'],
    [
      'too many headers',
      { ...VALID, headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) },
      'headers',
    ],
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

  it('accepts header values Node sends as they are: Latin-1 letters, tabs, 1024 characters', async () => {
    const headers = { 'X-Name': 'Zoë\tMüller', 'X-Long': 'x'.repeat(1024) };
    const webhook = await createWebhook(app, org.keys.admin, { ...VALID, headers });
    expect(webhook.headers).toEqual(headers);
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

  it('gives up on a host whose DNS never answers: 400 naming url, within the DNS deadline', async () => {
    const before = await webhookRows();
    const started = Date.now();
    const res = await app.request<Envelope<unknown>>('POST', '/v1/webhooks', {
      key: org.keys.admin,
      body: { ...VALID, url: 'https://hang.example.com/hook' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      {
        field: 'url',
        problem: `host hang.example.com does not resolve (no DNS answer within ${DNS_TIMEOUT_MS} ms)`,
      },
    ]);
    // Well under the 5 s default: the configured timeout, not the system resolver, ended the wait.
    expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS + 3000);
    expect(await webhookRows()).toBe(before);
  });

  it('checks the address again at delivery time (DNS rebinding), and refuses to connect', async () => {
    // An organization of its own: its one webhook is the only one the event reaches.
    const mine = await createOrganizationWithKeys(app);
    const webhook = await createWebhook(app, mine.keys.admin, {
      url: 'http://rebinding.example.com:9/hook',
      events: ['user.created'],
    });
    dns.set('rebinding.example.com', ['127.0.0.1']);
    await commitEvent(app, mine.scope);
    const [delivery] = await waitForDeliveries(
      app,
      mine.keys.read,
      webhook.id,
      (all) => all[0]?.status === 'Failed',
    );
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: null,
      error: 'refused: rebinding.example.com now resolves to non-public address 127.0.0.1',
    });
  });
});

/** A webhook as GraphQL's createWebhook selection below shows it (minSeverity in UPPER_SNAKE, e.g. HIGH). */
interface GraphqlWebhookBody {
  id: string;
  url: string;
  events: string[];
  filter: { tenantIds: string[]; minSeverity: string | null };
  headers: Record<string, string>;
  enabled: boolean;
  secret: string | null;
  createdAt: string;
}

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
    const created = await app.graphql<{ createWebhook: GraphqlWebhookBody }>(org.keys.admin, CREATE, {
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

    const updated = await app.graphql<{ updateWebhook: Pick<GraphqlWebhookBody, 'enabled' | 'headers'> }>(
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
  });

  it('answers NOT_FOUND for another organization’s webhook and deliveries in every query and mutation', async () => {
    const theirs = await unreachableWebhook(other.keys.admin, ['*']);
    const ping = await app.graphql<{ sendWebhookTest: { id: string } }>(
      other.keys.write,
      'mutation ($id: UUID!) { sendWebhookTest(id: $id) { id } }',
      { id: theirs.id },
    );
    const theirDelivery = ping.body.data!.sendWebhookTest.id;
    const mine = await createWebhook(app, org.keys.admin, VALID);
    const operations: Array<[string, string, Record<string, string>]> = [
      ['webhook', 'query ($id: UUID!) { webhook(id: $id) { id } }', { id: theirs.id }],
      [
        'webhookDeliveries',
        'query ($id: UUID!) { webhookDeliveries(webhookId: $id) { items { id } } }',
        { id: theirs.id },
      ],
      [
        'webhookDelivery',
        'query ($w: UUID!, $d: UUID!) { webhookDelivery(webhookId: $w, id: $d) { id } }',
        { w: theirs.id, d: theirDelivery },
      ],
      [
        'webhookDelivery (own webhook)',
        'query ($w: UUID!, $d: UUID!) { webhookDelivery(webhookId: $w, id: $d) { id } }',
        { w: mine.id, d: theirDelivery },
      ],
      [
        'updateWebhook',
        'mutation ($id: UUID!) { updateWebhook(id: $id, input: { enabled: false }) { id } }',
        { id: theirs.id },
      ],
      ['deleteWebhook', 'mutation ($id: UUID!) { deleteWebhook(id: $id) { id } }', { id: theirs.id }],
      [
        'rotateWebhookSecret',
        'mutation ($id: UUID!) { rotateWebhookSecret(id: $id) { secret } }',
        { id: theirs.id },
      ],
      ['sendWebhookTest', 'mutation ($id: UUID!) { sendWebhookTest(id: $id) { id } }', { id: theirs.id }],
      [
        'resendWebhookDelivery',
        'mutation ($w: UUID!, $d: UUID!) { resendWebhookDelivery(webhookId: $w, id: $d) { id } }',
        { w: theirs.id, d: theirDelivery },
      ],
      [
        'resendWebhookDelivery (own webhook)',
        'mutation ($w: UUID!, $d: UUID!) { resendWebhookDelivery(webhookId: $w, id: $d) { id } }',
        { w: mine.id, d: theirDelivery },
      ],
    ];
    for (const [name, query, variables] of operations) {
      const res = await app.graphql(org.keys.admin, query, variables);
      expect([name, res.body.errors?.[0].extensions.code, res.body.data]).toEqual([name, 'NOT_FOUND', null]);
    }
    // Nothing of theirs changed: still enabled, one delivery, no new secret.
    const after = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${theirs.id}`, {
      key: other.keys.admin,
    });
    expect(after.body.data).toMatchObject({ enabled: true, previousSecretExpiresAt: null });
    const deliveries = await app.request<Envelope<DeliveryBody[]>>(
      'GET',
      `/v1/webhooks/${theirs.id}/deliveries`,
      { key: other.keys.read },
    );
    expect(deliveries.body.data.map((delivery) => delivery.id)).toEqual([theirDelivery]);
  });

  it('shows the delivery log with attempts and the payload, in one page of queries', async () => {
    const mine = await createOrganizationWithKeys(app);
    const webhook = await unreachableWebhook(mine.keys.admin, ['user.*']);
    const eventId = await commitEvent(app, mine.scope, { kind: 'user.deleted' });
    await waitForDeliveries(app, mine.keys.read, webhook.id, (all) => all[0]?.status === 'Failed');
    const res = await app.graphql<{
      webhookDeliveries: {
        items: Array<{ eventId: string; status: string; attempts: unknown[]; payload: { event: string } }>;
      };
    }>(
      mine.keys.read,
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

describe('the event a delivery carries needs the read permission of its subject', () => {
  interface PayloadView {
    event: string;
    tenant: { id: string } | null;
    details: Record<string, unknown>;
  }
  interface DeliveryView {
    id: string;
    event: string;
    payload: PayloadView | null;
  }

  let scoped: OrganizationWithKeys;
  let webhookId: string;
  let tokens: Record<'tenantsOnly' | 'tenantsAndUsers' | 'tenantsAndLicenses', string>;
  let byKind: Map<string, string>;

  beforeAll(async () => {
    scoped = await createOrganizationWithKeys(app);
    const tenant = await createTenant(app, scoped.scope);
    const member = await createMember(app, scoped.organization.id);
    const client = await createOAuthClient(app, scoped.scope);
    tokens = {
      tenantsOnly: await issueAccessToken(app, client, member, [Permission.READ_TENANTS]),
      tenantsAndUsers: await issueAccessToken(app, client, member, [
        Permission.READ_TENANTS,
        Permission.READ_USERS,
      ]),
      tenantsAndLicenses: await issueAccessToken(app, client, member, [
        Permission.READ_TENANTS,
        Permission.READ_LICENSES,
      ]),
    };
    const webhook = await unreachableWebhook(scoped.keys.admin, ['*']);
    webhookId = webhook.id;
    const events = [
      { kind: 'user.created', details: { displayName: 'Ada Lovelace', mail: 'ada@example.com' } },
      { kind: 'license.assigned', details: { sku: 'E5', user: 'ada@example.com' } },
      { kind: 'tenant.synced', details: { usersCreated: 1 } },
    ];
    for (const event of events)
      await commitEvent(app, scoped.scope, { ...event, tenant: tenant.eventRef, severity: 'informational' });
    const deliveries = await waitForDeliveries(
      app,
      scoped.keys.read,
      webhookId,
      (all) => all.length === events.length && settled(all),
    );
    byKind = new Map(deliveries.map((delivery) => [delivery.event, delivery.id]));
  });

  const LOG = /* GraphQL */ `
    query ($id: UUID!) {
      webhookDeliveries(webhookId: $id) {
        items {
          id
          event
          payload {
            event
            tenant {
              id
            }
            details
          }
        }
      }
    }
  `;

  async function log(credential: string): Promise<Map<string, PayloadView | null>> {
    const res = await app.graphql<{ webhookDeliveries: { items: DeliveryView[] } }>(credential, LOG, {
      id: webhookId,
    });
    expect(res.body.errors).toBeUndefined();
    return new Map(res.body.data!.webhookDeliveries.items.map((item) => [item.event, item.payload]));
  }

  it('GraphQL: a token with read:tenants only sees the delivery log, not user or license details', async () => {
    const payloads = await log(tokens.tenantsOnly);
    expect([...payloads.keys()].sort()).toEqual(['license.assigned', 'tenant.synced', 'user.created']);
    expect(payloads.get('user.created')).toBeNull();
    expect(payloads.get('license.assigned')).toBeNull();
    expect(payloads.get('tenant.synced')).toMatchObject({ details: { usersCreated: 1 } });
  });

  it('GraphQL: each read permission opens its own family', async () => {
    const withUsers = await log(tokens.tenantsAndUsers);
    expect(withUsers.get('user.created')).toMatchObject({ details: { displayName: 'Ada Lovelace' } });
    expect(withUsers.get('license.assigned')).toBeNull();
    const withLicenses = await log(tokens.tenantsAndLicenses);
    expect(withLicenses.get('license.assigned')).toMatchObject({ details: { sku: 'E5' } });
    expect(withLicenses.get('user.created')).toBeNull();
    // Every API key level holds all three.
    const byReadKey = await log(scoped.keys.read);
    expect([...byReadKey.values()].every((payload) => payload !== null)).toBe(true);
  });

  it('REST GET /v1/webhooks/:id/deliveries/:deliveryId applies the same rule', async () => {
    const path = `/v1/webhooks/${webhookId}/deliveries/${byKind.get('user.created')}`;
    const hidden = await app.request<Envelope<DeliveryView>>('GET', path, { key: tokens.tenantsOnly });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toMatchObject({ event: 'user.created', payload: null });
    expect(JSON.stringify(hidden.body)).not.toContain('Ada Lovelace');
    const shown = await app.request<Envelope<DeliveryView>>('GET', path, { key: tokens.tenantsAndUsers });
    expect(shown.body.data.payload).toMatchObject({
      event: 'user.created',
      details: { displayName: 'Ada Lovelace', mail: 'ada@example.com' },
    });
    const synced = await app.request<Envelope<DeliveryView>>(
      'GET',
      `/v1/webhooks/${webhookId}/deliveries/${byKind.get('tenant.synced')}`,
      { key: tokens.tenantsOnly },
    );
    expect(synced.body.data.payload).toMatchObject({ event: 'tenant.synced' });
  });
});

describe('the network', () => {
  it('opened no connection to any address of this file: every attempt was refused before connecting', async () => {
    const { rows } = await app.pool.query<{ error: string | null; status_code: number | null }>(
      'select error, status_code from webhook_attempts where organization_id = any($1::uuid[])',
      [organizationIds],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.status_code).toBeNull();
      expect(row.error).toMatch(/^refused: /);
    }
  });
});
