import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import { systemClock } from '../core/clock.js';
import { recordWebhookAttempt } from '../core/metrics.js';
import type { EventPayload } from '../core/events/event-filter.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { chatMessageBody } from '../integrations/integration-messages.js';
import { DeliveryStatus } from './webhook-delivery.entity.js';
import type { DeliveryJobPayload, DueDelivery } from './webhook-delivery.queue.js';
import { recordFailedAttempt } from './webhook-failure.js';
import { postDelivery, type PostOutcome } from './webhook-http.js';
import { signatureHeaders } from './webhook-signing.js';
import { WebhookFormat } from './webhook.entity.js';
import { webhookSettingsOf, type WebhookSettings } from './webhook.settings.js';

/** A delivery with its webhook and event: one statement per attempt. */
const LOAD_DELIVERY = `
  select d.id, d.organization_id, d.environment, d.status, d.attempt_count, d.manual_attempt, d.event_id,
         w.id as webhook_id, w.url, w.headers, w.enabled, w.format, w.signing_secret, w.previous_signing_secret,
         (extract(epoch from w.previous_secret_expires_at) * 1000)::float8 as previous_secret_expires_ms,
         e.payload
    from webhook_deliveries d
    join webhooks w on w.id = d.webhook_id
    join domain_events e on e.id = d.event_id
   where d.id = ?`;

/** The common case in one atomic statement: the attempt, the delivery's outcome, the end of a failing run. */
const RECORD_SUCCESS = `
  with attempt as (
    insert into webhook_attempts
      (id, organization_id, environment, delivery_id, attempt_number, attempted_at, status_code, latency_ms, error)
    values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, null)
  ), recovered as (
    update webhooks set failing_since = null where id = ? and failing_since is not null
  )
  update webhook_deliveries
     set status = '${DeliveryStatus.SUCCEEDED}', attempt_count = ?, last_attempt_at = ?, last_status_code = ?,
         last_error = null, next_attempt_at = null, completed_at = ?, manual_attempt = false
   where id = ?`;

const CANCEL_DELIVERY = `
  update webhook_deliveries
     set status = '${DeliveryStatus.CANCELLED}', completed_at = ?, next_attempt_at = null,
         last_error = 'the webhook is disabled'
   where id = ? and status = '${DeliveryStatus.PENDING}'`;

const USER_AGENT = 'msp-admin-webhooks/1.0 (+https://www.standardwebhooks.com)';

/** The webhook body of SPEC 6 plus `id` (DECISIONS), with its fields in the documented order. */
export function standardBody(payload: EventPayload): string {
  const { id, event, severity, tenant, details, timestamp, actionUrl } = payload;
  return JSON.stringify({ id, event, severity, tenant, details, timestamp, actionUrl });
}

function bodyOf(delivery: DueDelivery): string {
  return delivery.format === WebhookFormat.STANDARD
    ? standardBody(delivery.payload)
    : chatMessageBody(delivery.format, delivery.payload);
}

async function attempt(
  delivery: DueDelivery,
  settings: WebhookSettings,
  businessNow: Date,
): Promise<PostOutcome> {
  const body = bodyOf(delivery);
  const previousActive =
    delivery.previous_signing_secret !== null &&
    delivery.previous_secret_expires_ms !== null &&
    delivery.previous_secret_expires_ms > businessNow.getTime();
  return postDelivery({
    url: delivery.url,
    body,
    timeoutMs: settings.timeoutMs,
    resolveForCheck: settings.allowPrivateTargets ? undefined : settings.resolveHost,
    headers: {
      ...settings.secretBox.openValues(delivery.headers),
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      // The event id is the message id: the same on every attempt, so receivers can de-duplicate.
      ...signatureHeaders(delivery.event_id, systemClock.now(), body, {
        current: settings.secretBox.open(delivery.signing_secret),
        previous: previousActive ? settings.secretBox.open(delivery.previous_signing_secret!) : null,
      }),
    },
  });
}

/**
 * One attempt of one delivery: load it with its webhook and event, POST, record the attempt and what
 * follows (success; or a retry queued on the schedule; or failure, 410 and 5 days of failures disabling the
 * webhook). A job for a delivery that is no longer pending (re-sent, cancelled) does nothing.
 */
export function webhookDeliveryTask(orm: MikroORM, deps: AppDeps): Task {
  const settings = webhookSettingsOf(deps);
  return async (rawPayload) => {
    const { deliveryId } = rawPayload as DeliveryJobPayload;
    const connection = orm.em.getConnection();
    const [delivery] = await connection.execute<DueDelivery[]>(LOAD_DELIVERY, [deliveryId]);
    if (!delivery || delivery.status !== DeliveryStatus.PENDING) return;
    if (!delivery.enabled) {
      await connection.execute(CANCEL_DELIVERY, [deps.clock.now(), delivery.id]);
      return;
    }
    const outcome = await attempt(delivery, settings, deps.clock.now());
    const now = deps.clock.now();
    const attemptNumber = delivery.attempt_count + 1;
    recordWebhookAttempt(outcome.error === null, outcome.latencyMs);
    if (outcome.error === null) {
      await connection.execute(RECORD_SUCCESS, [
        delivery.organization_id,
        delivery.environment,
        delivery.id,
        attemptNumber,
        now,
        outcome.statusCode,
        outcome.latencyMs,
        delivery.webhook_id,
        attemptNumber,
        now,
        outcome.statusCode,
        now,
        delivery.id,
      ]);
      return;
    }
    const scope: Scope = { organizationId: delivery.organization_id, environment: delivery.environment };
    await recordFailedAttempt(createJobContext(orm, deps, scope, 'system:webhooks'), settings, {
      delivery,
      attemptNumber,
      outcome,
    });
  };
}
