import type { NewEvent } from '../../src/core/events/record-event.js';
import { onServer } from '../helpers/on-server.js';
import type { Scope } from '../../src/core/scope.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';

export type WebhookBody = ItemOf<'listWebhooks'>;

/** A webhook as POST /v1/webhooks answers it: with its signing secret, shown once. */
export type WebhookWithSecretBody = DataOf<'createWebhook'>;

export type DeliveryBody = ItemOf<'listWebhookDeliveries'>;

/** POST /v1/webhooks with an Admin key; fails the test unless it is created. */
export async function createWebhook(
  app: TestServer,
  adminKey: string,
  body: Record<string, unknown>,
): Promise<WebhookWithSecretBody> {
  const res = await app.request<Envelope<WebhookWithSecretBody>>('POST', '/v1/webhooks', {
    key: adminKey,
    body,
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Commits one domain event through the one emission point, as any service would. */
export async function commitEvent(
  app: TestServer,
  scope: Scope,
  event: Partial<NewEvent> = {},
): Promise<string> {
  return onServer(app, 'commitEvent', scope, {
    kind: 'user.created',
    severity: 'informational',
    tenant: null,
    details: {},
    actionPath: '/tenants',
    ...event,
  });
}

/** Polls the delivery log until `done` holds for it. */
export async function waitForDeliveries(
  app: TestServer,
  key: string,
  webhookId: string,
  done: (deliveries: DeliveryBody[]) => boolean,
  timeoutMs = 10_000,
): Promise<DeliveryBody[]> {
  return eventually(
    async () => {
      const res = await app.request<Envelope<DeliveryBody[]>>(
        'GET',
        `/v1/webhooks/${webhookId}/deliveries?limit=100`,
        { key },
      );
      if (res.status !== 200 || !done(res.body.data)) throw new Error(`not yet: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    // 50 ms apart at first, then up to 200 ms: each probe is a page of deliveries with their attempts through the
    // API, and a retry schedule runs for seconds on the loaded machine.
    {
      timeout: timeoutMs,
      interval: 50,
      maxInterval: 200,
      what: `the deliveries of webhook ${webhookId} to settle`,
    },
  );
}

/** A short schedule for tests: the same number of retries as DECISIONS, in milliseconds. */
export const SHORT_RETRY_SCHEDULE_MS = [100, 100, 100, 100, 100, 100, 100];
