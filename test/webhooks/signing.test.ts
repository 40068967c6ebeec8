import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook as StandardWebhook, WebhookVerificationError } from 'standardwebhooks';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  commitEvent,
  createWebhook,
  waitForDeliveries,
  type WebhookBody,
  type WebhookWithSecretBody,
} from './webhook-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import { WebhookReceiver, type ReceivedRequest } from './webhook-receiver.js';

const TOLERANCE_SECONDS = 5 * 60;

/**
 * A receiver's own check, written from the Standard Webhooks specification (not the package): HMAC-SHA256
 * of "id.timestamp.body" with the base64 key after whsec_, any of the space-separated v1 signatures, and a
 * timestamp within 5 minutes of the receiver's clock.
 */
function handVerify(
  secret: string,
  request: Pick<ReceivedRequest, 'headers' | 'body'>,
  nowSeconds: number,
): boolean {
  const id = request.headers['webhook-id'];
  const timestamp = Number(request.headers['webhook-timestamp']);
  if (!id || !Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS)
    return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  return request.headers['webhook-signature'].split(' ').some((versioned) => {
    const [version, signature] = versioned.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

let app: SharedApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  ({ app, org } = await sharedSuite({ jobs: true, webhooks: { allowPrivateTargets: true } }));
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

describe('a delivery', () => {
  let webhook: WebhookWithSecretBody;
  let request: ReceivedRequest;
  let eventId: string;

  beforeAll(async () => {
    const tenant = await createTenant(app, org.scope, { name: 'Contoso', domain: 'contoso.example.com' });
    webhook = await createWebhook(app, org.keys.admin, {
      url: receiver.url('/signed'),
      events: ['user.*'],
      headers: { Authorization: 'Bearer receiver-token', 'X-Custom': 'yes' },
    });
    eventId = await commitEvent(app, org.scope, {
      kind: 'user.created',
      severity: 'low',
      tenant: tenant.eventRef,
      details: { userId: 'u1', displayName: 'Ada' },
      actionPath: `/tenants/${tenant.id}/users/u1`,
    });
    [request] = await receiver.waitFor('/signed', 1);
  });

  it('is accepted by the official standardwebhooks verifier, and carries the outbox payload', async () => {
    const verified = new StandardWebhook(webhook.secret!).verify(request.body, request.headers);
    const {
      rows: [stored],
    } = await app.pool.query<{ payload: unknown }>('select payload from domain_events where id = $1', [
      eventId,
    ]);
    expect(verified).toEqual(stored.payload);
    expect(Object.keys(JSON.parse(request.body) as object)).toEqual([
      'id',
      'event',
      'severity',
      'tenant',
      'details',
      'timestamp',
      'actionUrl',
    ]);
    expect(JSON.parse(request.body)).toMatchObject({
      id: eventId,
      event: 'user.created',
      severity: 'low',
      tenant: { name: 'Contoso', domain: 'contoso.example.com' },
    });
  });

  it('carries the Standard Webhooks headers (webhook-id is the event id), the custom headers and JSON', () => {
    expect(request.headers['webhook-id']).toBe(eventId);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers.authorization).toBe('Bearer receiver-token');
    expect(request.headers['x-custom']).toBe('yes');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('keeps the custom header values sealed at rest, and shows them to Admin callers as sent', async () => {
    const { rows } = await app.pool.query<{ headers: Record<string, string> }>(
      'select headers from webhooks where id = $1',
      [webhook.id],
    );
    expect(Object.keys(rows[0].headers).sort()).toEqual(['Authorization', 'X-Custom']);
    for (const value of Object.values(rows[0].headers)) expect(value).toMatch(/^enc:v1:/);
    expect(JSON.stringify(rows[0].headers)).not.toContain('receiver-token');
    const shown = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(shown.body.data.headers).toEqual({ Authorization: 'Bearer receiver-token', 'X-Custom': 'yes' });
  });

  it('passes a hand-written check of the signature and the 5-minute tolerance', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(handVerify(webhook.secret!, request, now)).toBe(true);
    // The same request seen 6 minutes later (a replay) is too old; 6 minutes early, too new.
    expect(handVerify(webhook.secret!, request, now + 6 * 60)).toBe(false);
    expect(handVerify(webhook.secret!, request, now - 6 * 60)).toBe(false);
  });

  it('is rejected when the body is tampered with', () => {
    const tampered = request.body.replace('"low"', '"high"');
    expect(tampered).not.toBe(request.body);
    expect(() => new StandardWebhook(webhook.secret!).verify(tampered, request.headers)).toThrow(
      WebhookVerificationError,
    );
    expect(handVerify(webhook.secret!, { ...request, body: tampered }, Math.floor(Date.now() / 1000))).toBe(
      false,
    );
  });

  it('is rejected with a timestamp older than 5 minutes, even re-signed with the right id and body', () => {
    const oldSeconds = Math.floor(Date.now() / 1000) - TOLERANCE_SECONDS - 30;
    const signer = new StandardWebhook(webhook.secret!);
    const headers = {
      ...request.headers,
      'webhook-timestamp': String(oldSeconds),
      'webhook-signature': signer.sign(eventId, new Date(oldSeconds * 1000), request.body),
    };
    expect(() => signer.verify(request.body, headers)).toThrow(/too old/);
    // The original signature does not cover a changed timestamp either.
    expect(() =>
      signer.verify(request.body, { ...request.headers, 'webhook-timestamp': String(oldSeconds + 1) }),
    ).toThrow(WebhookVerificationError);
  });

  it('is rejected by a verifier holding another secret', () => {
    const other = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    expect(() => new StandardWebhook(other).verify(request.body, request.headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('is logged with its attempt: time, status code, latency, no error', async () => {
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, (all) =>
      all.some((d) => d.status === 'Succeeded'),
    );
    expect(delivery).toMatchObject({ eventId, event: 'user.created', status: 'Succeeded', attemptCount: 1 });
    expect(delivery.attempts).toEqual([
      {
        attemptNumber: 1,
        attemptedAt: app.clock.now().toISOString(),
        statusCode: 200,
        latencyMs: expect.any(Number) as number,
        error: null,
      },
    ]);
  });
});

describe('secret rotation', () => {
  it('signs with the new and the old secret for 24 hours (injectable clock), then with the new alone', async () => {
    const webhook = await createWebhook(app, org.keys.admin, {
      url: receiver.url('/rotation'),
      events: ['tenant.synced'],
    });
    const rotated = await app.request<Envelope<DataOf<'rotateWebhookSecret'>>>(
      'POST',
      `/v1/webhooks/${webhook.id}/rotate-secret`,
      {
        key: org.keys.admin,
      },
    );
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret!;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(webhook.secret);
    expect(rotated.body.data.previousSecretExpiresAt).toBe(
      new Date(app.clock.now().getTime() + 86_400_000).toISOString(),
    );

    // At rest, both secrets are sealed under SECRETS_KEY: the table alone gives neither away.
    const { rows } = await app.pool.query<{ current: string; previous: string }>(
      'select signing_secret as current, previous_signing_secret as previous from webhooks where id = $1',
      [webhook.id],
    );
    for (const stored of [rows[0].current, rows[0].previous]) expect(stored).toMatch(/^enc:v1:/);
    const table = JSON.stringify(rows);
    for (const secret of [newSecret, webhook.secret!])
      expect(table).not.toContain(secret.slice('whsec_'.length, 20));

    await commitEvent(app, org.scope, { kind: 'tenant.synced' });
    const [during] = await receiver.waitFor('/rotation', 1);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new StandardWebhook(newSecret).verify(during.body, during.headers)).not.toThrow();
    expect(() => new StandardWebhook(webhook.secret!).verify(during.body, during.headers)).not.toThrow();

    app.clock.advance(24 * 60 * 60 * 1000 + 1000);
    await commitEvent(app, org.scope, { kind: 'tenant.synced' });
    const [, after] = await receiver.waitFor('/rotation', 2);
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new StandardWebhook(newSecret).verify(after.body, after.headers)).not.toThrow();
    expect(() => new StandardWebhook(webhook.secret!).verify(after.body, after.headers)).toThrow(
      WebhookVerificationError,
    );
  });

  it('is refused to Write keys, and the secret is never shown again', async () => {
    const webhook = await createWebhook(app, org.keys.admin, { url: receiver.url('/never'), events: ['*'] });
    const refused = await app.request<Envelope<unknown>>('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
      key: org.keys.write,
    });
    expect(refused.status).toBe(403);
    const read = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
    });
    expect(read.body.data).not.toHaveProperty('secret');
    const graphql = await app.graphql<{ webhook: { secret: string | null } }>(
      org.keys.admin,
      'query ($id: UUID!) { webhook(id: $id) { secret } }',
      { id: webhook.id },
    );
    expect(graphql.body.data?.webhook.secret).toBeNull();
  });
});
