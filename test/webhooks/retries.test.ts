import { Webhook as StandardWebhook } from 'standardwebhooks';
import { DAY_MS } from '../../src/core/clock.js';
import type { OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  commitEvent,
  createWebhook,
  waitForDeliveries,
  type DeliveryBody,
  type WebhookBody,
} from './webhook-kit.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

/** Seven retries as in DECISIONS, 150 ms apart instead of 5 s ... 10 h. */
const SCHEDULE_MS = [150, 150, 150, 150, 150, 150, 150];
const TIMEOUT_MS = 400;

let app: SharedApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  ({ app, org } = await sharedSuite({
    jobs: true,
    webhooks: { allowPrivateTargets: true, retryScheduleMs: SCHEDULE_MS, timeoutMs: TIMEOUT_MS },
  }));
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

/** Every webhook's secret by its receiver path, to verify what arrives there. */
const secretByPath = new Map<string, string>();
let verifiedUpTo = 0;

/**
 * The official Standard Webhooks verifier accepts every request the receiver got (signature over the raw
 * body, and a timestamp within its 5 minutes of tolerance): first attempts, retries and re-sends alike.
 */
afterEach(() => {
  const fresh = receiver.received.slice(verifiedUpTo);
  verifiedUpTo += fresh.length;
  for (const request of fresh) {
    const secret = secretByPath.get(request.path);
    expect([request.path, typeof secret]).toEqual([request.path, 'string']);
    expect(new StandardWebhook(secret!).verify(request.body, request.headers)).toEqual(
      JSON.parse(request.body),
    );
  }
});

const settled = (deliveries: DeliveryBody[]) =>
  deliveries.length > 0 && deliveries.every((d) => d.status !== 'Pending');

async function webhookOn(path: string, events = ['user.created']): Promise<WebhookBody> {
  const webhook = await createWebhook(app, org.keys.admin, { url: receiver.url(path), events });
  secretByPath.set(path, webhook.secret!);
  return webhook;
}

/**
 * Until no delivery job of the webhook is queued or running (a job leaves the queue when its attempt is over):
 * whatever was going to reach its receiver has, so "it received nothing more" can be asserted without a sleep.
 */
async function nothingQueuedFor(webhookId: string): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ count: number }>(
        // The public view has no payload: the endpoint's batch jobs are known by theirs (webhookId).
        `select count(*)::int as count from graphile_worker._private_jobs j
           join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = 'webhooks.deliver'
            and (j.payload ->> 'webhookId' = $1
                 or j.payload ->> 'deliveryId' in (select id::text from webhook_deliveries where webhook_id::text = $1))`,
        [webhookId],
      );
      expect(rows[0].count).toBe(0);
    },
    { what: `no delivery job left for webhook ${webhookId}` },
  );
}

async function readWebhook(id: string): Promise<WebhookBody> {
  const res = await app.request<Envelope<WebhookBody>>('GET', `/v1/webhooks/${id}`, { key: org.keys.read });
  return res.body.data;
}

describe('retries', () => {
  it('retries a receiver that fails twice, then succeeds; every attempt is logged with the same webhook-id', async () => {
    receiver.respondWith((request, index) =>
      request.path === '/flaky' && index < 2
        ? { status: index === 0 ? 500 : 502, body: 'down' }
        : { status: 204 },
    );
    const webhook = await webhookOn('/flaky');
    const eventId = await commitEvent(app, org.scope);
    const requests = await receiver.waitFor('/flaky', 3);
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);

    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    // Gaps between attempts follow the (short) schedule: at least the wait minus its jitter.
    expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(150 * 0.8 - 10);
    expect(delivery).toMatchObject({
      status: 'Succeeded',
      attemptCount: 3,
      lastStatusCode: 204,
      lastError: null,
    });
    expect(delivery.attempts.map((a) => [a.attemptNumber, a.statusCode, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 502, 'HTTP 502'],
      [3, 204, null],
    ]);
    expect(await readWebhook(webhook.id)).toMatchObject({ enabled: true, failingSince: null });
  });

  it('counts only 2xx as success: a redirect is a failure and is not followed', async () => {
    receiver.respondWith((request, index) =>
      request.path === '/moved' && index === 0
        ? { status: 302, headers: { location: '/elsewhere' } }
        : { status: 200 },
    );
    const webhook = await webhookOn('/moved');
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([302, 200]);
    expect(receiver.on('/elsewhere')).toHaveLength(0);
  });

  it('gives up after the eighth attempt (1 + 7 retries) and marks the delivery Failed', async () => {
    receiver.respondWith((request) => ({ status: request.path === '/always-down' ? 500 : 200 }));
    const webhook = await webhookOn('/always-down');
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled, 15_000);
    expect(delivery).toMatchObject({ status: 'Failed', attemptCount: 8, nextAttemptAt: null });
    expect(receiver.on('/always-down')).toHaveLength(8);
    // Failing, not yet for 5 days: still enabled, with the start of its run of failures.
    expect(await readWebhook(webhook.id)).toMatchObject({
      enabled: true,
      failingSince: app.clock.now().toISOString(),
    });
  });

  it('treats a receiver slower than the timeout as a failed attempt', async () => {
    receiver.respondWith((request, index) =>
      request.path === '/slow' && index === 0 ? { status: 200, delayMs: TIMEOUT_MS + 300 } : { status: 200 },
    );
    const webhook = await webhookOn('/slow');
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: null,
      error: `timed out after ${TIMEOUT_MS} ms`,
    });
    expect(delivery.attempts[0].latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(delivery).toMatchObject({ status: 'Succeeded', attemptCount: 2 });
  });

  it('records a refused connection as an attempt without a status code', async () => {
    const closed = await WebhookReceiver.start();
    const url = closed.url('/gone-server');
    await closed.stop();
    const webhook = await createWebhook(app, org.keys.admin, { url, events: ['user.created'] });
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all[0]?.attemptCount >= 1,
    );
    expect(delivery.attempts[0]).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it.each([429, 503])('waits at least as long as Retry-After asks on %i', async (status) => {
    const path = `/busy-${status}`;
    receiver.respondWith((request, index) =>
      request.path === path && index === 0 ? { status, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const webhook = await webhookOn(path);
    await commitEvent(app, org.scope);
    const [first, second] = await receiver.waitFor(path, 2);
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
    // The retry is signed anew, with the time it was sent (a second or more later), not the first one's.
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(first.headers['webhook-timestamp']),
    );
    expect(second.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([status, 200]);
  });
});

describe('disabling', () => {
  it('disables the webhook on 410 Gone, emits webhook.disabled, and sends it nothing more', async () => {
    receiver.respondWith((request) => ({ status: request.path === '/gone' ? 410 : 200 }));
    await webhookOn('/watcher', ['webhook.*']);
    const gone = await webhookOn('/gone');
    await commitEvent(app, org.scope);
    const [delivery] = await waitForDeliveries(app, org.keys.read, gone.id, settled);
    expect(delivery).toMatchObject({ status: 'Failed', attemptCount: 1, lastStatusCode: 410 });
    expect(await readWebhook(gone.id)).toMatchObject({
      enabled: false,
      disabledReason: 'the endpoint answered 410 Gone',
      disabledAt: app.clock.now().toISOString(),
    });

    const [notice] = await receiver.waitFor('/watcher', 1);
    expect(JSON.parse(notice.body)).toMatchObject({
      event: 'webhook.disabled',
      severity: 'high',
      tenant: null,
      details: {
        webhookId: gone.id,
        host: `127.0.0.1:${receiver.port}`,
        reason: 'the endpoint answered 410 Gone',
      },
      actionUrl: `http://app.test/webhooks/${gone.id}`,
    });

    // Disabled endpoints receive nothing: new events make no delivery, and a ping or re-send is refused.
    await commitEvent(app, org.scope);
    await commitEvent(app, org.scope, { kind: 'webhook.test' });
    const ping = await app.request<Envelope<unknown>>('POST', `/v1/webhooks/${gone.id}/test`, {
      key: org.keys.write,
    });
    expect(ping.status).toBe(409);
    const resend = await app.request<Envelope<unknown>>(
      'POST',
      `/v1/webhooks/${gone.id}/deliveries/${delivery.id}/resend`,
      { key: org.keys.write },
    );
    expect(resend.status).toBe(409);
    await nothingQueuedFor(gone.id);
    expect(receiver.on('/gone')).toHaveLength(1);
    const after = await app.request<Envelope<DeliveryBody[]>>('GET', `/v1/webhooks/${gone.id}/deliveries`, {
      key: org.keys.read,
    });
    expect(after.body.meta?.total).toBe(1);
  });

  it('cancels the pending retries of a webhook that gets disabled', async () => {
    receiver.respondWith((request, index) => {
      if (request.path !== '/fading') return { status: 200 };
      return { status: index === 0 ? 500 : 410 };
    });
    const webhook = await webhookOn('/fading');
    await commitEvent(app, org.scope);
    await commitEvent(app, org.scope);
    const deliveries = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all.length === 2 && settled(all),
    );
    expect(deliveries.map((d) => d.status).sort()).toEqual(['Cancelled', 'Failed']);
  });

  it('disables an endpoint that has failed continuously for 5 days (business clock)', async () => {
    receiver.respondWith((request) => ({ status: request.path === '/dead' ? 500 : 200 }));
    await webhookOn('/watcher-5d', ['webhook.disabled']);
    const webhook = await webhookOn('/dead');
    await commitEvent(app, org.scope);
    await waitForDeliveries(app, org.keys.read, webhook.id, settled, 15_000);
    const failingSince = (await readWebhook(webhook.id)).failingSince;
    expect(failingSince).toBe(app.clock.now().toISOString());

    app.clock.advance(4 * DAY_MS);
    await commitEvent(app, org.scope);
    await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all.length === 2 && settled(all),
      15_000,
    );
    expect(await readWebhook(webhook.id)).toMatchObject({ enabled: true, failingSince });

    app.clock.advance(DAY_MS);
    const thirdEvent = await commitEvent(app, org.scope);
    const third = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all.length === 3 && settled(all),
    );
    expect(third.find((d) => d.eventId === thirdEvent)).toMatchObject({ status: 'Failed', attemptCount: 1 });
    const disabled = await readWebhook(webhook.id);
    expect(disabled).toMatchObject({ enabled: false });
    expect(disabled.disabledReason).toMatch(/^every attempt failed for 5 days/);
    // ...announced once with webhook.disabled to the organization's other webhooks (earlier tests' failing
    // webhooks reach their 5 days too, and are announced as well).
    const aboutThisWebhook = (request: { body: string }) =>
      (JSON.parse(request.body) as { details: { webhookId: string } }).details.webhookId === webhook.id;
    await receiver.waitForMatching('/watcher-5d', aboutThisWebhook);
    const notices = receiver
      .on('/watcher-5d')
      .filter(aboutThisWebhook)
      .map((request) => JSON.parse(request.body) as { details: { webhookId: string } });
    expect(notices).toEqual([
      {
        id: expect.any(String) as string,
        event: 'webhook.disabled',
        severity: 'high',
        tenant: null,
        details: {
          webhookId: webhook.id,
          host: `127.0.0.1:${receiver.port}`,
          reason: disabled.disabledReason,
        },
        timestamp: disabled.disabledAt,
        actionUrl: `http://app.test/webhooks/${webhook.id}`,
      },
    ]);

    // A person re-enables it: a fresh start, and deliveries flow again.
    receiver.respondWith(() => ({ status: 200 }));
    const patched = await app.request<Envelope<WebhookBody>>('PATCH', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
      body: { enabled: true },
    });
    expect(patched.body.data).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    });
    const fourthEvent = await commitEvent(app, org.scope);
    const all = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all.length === 4 && settled(all),
    );
    expect(all.find((d) => d.eventId === fourthEvent)?.status).toBe('Succeeded');
  });

  it('a webhook disabled by a person receives nothing', async () => {
    const webhook = await webhookOn('/paused');
    await app.request('PATCH', `/v1/webhooks/${webhook.id}`, {
      key: org.keys.admin,
      body: { enabled: false },
    });
    await commitEvent(app, org.scope);
    await nothingQueuedFor(webhook.id);
    expect(receiver.on('/paused')).toHaveLength(0);
  });
});

describe('test ping and re-send', () => {
  it('sends webhook.test to that webhook alone', async () => {
    receiver.respondWith(() => ({ status: 200 }));
    const target = await webhookOn('/ping-target', ['*']);
    const bystander = await webhookOn('/ping-bystander', ['*']);
    const res = await app.request<Envelope<DeliveryBody>>('POST', `/v1/webhooks/${target.id}/test`, {
      key: org.keys.write,
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ event: 'webhook.test', status: 'Pending', attemptCount: 0 });
    const [ping] = await receiver.waitFor('/ping-target', 1);
    expect(JSON.parse(ping.body)).toMatchObject({
      id: res.body.data.eventId,
      event: 'webhook.test',
      severity: 'informational',
      tenant: null,
      details: { webhookId: target.id },
    });
    await nothingQueuedFor(bystander.id);
    expect(receiver.on('/ping-bystander')).toHaveLength(0);
    void bystander;
  });

  it('re-sends a failed delivery once, with the same webhook-id', async () => {
    let healthy = false;
    receiver.respondWith((request) => ({ status: request.path === '/later' && !healthy ? 500 : 200 }));
    const webhook = await webhookOn('/later');
    const eventId = await commitEvent(app, org.scope);
    const [failed] = await waitForDeliveries(app, org.keys.read, webhook.id, settled, 15_000);
    expect(failed).toMatchObject({ status: 'Failed', attemptCount: 8 });

    healthy = true;
    const res = await app.request<Envelope<DeliveryBody>>(
      'POST',
      `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/resend`,
      { key: org.keys.write },
    );
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('Pending');
    const [delivery] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);
    expect(delivery).toMatchObject({ id: failed.id, status: 'Succeeded', attemptCount: 9 });
    expect(receiver.on('/later').at(-1)?.headers['webhook-id']).toBe(eventId);
  });

  it('a failed re-send is one attempt, not a new schedule', async () => {
    receiver.respondWith((request, index) => ({ status: request.path === '/once' && index > 0 ? 500 : 200 }));
    const webhook = await webhookOn('/once');
    await commitEvent(app, org.scope);
    const [delivered] = await waitForDeliveries(app, org.keys.read, webhook.id, settled);
    await app.request('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivered.id}/resend`, {
      key: org.keys.write,
    });
    await receiver.waitFor('/once', 2);
    const [delivery] = await waitForDeliveries(
      app,
      org.keys.read,
      webhook.id,
      (all) => all[0].attemptCount === 2 && settled(all),
    );
    expect(delivery).toMatchObject({ status: 'Failed', attemptCount: 2, lastStatusCode: 500 });
    await nothingQueuedFor(webhook.id);
    expect(receiver.on('/once')).toHaveLength(2);
  });
});
