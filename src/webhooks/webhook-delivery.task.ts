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
import { StatementBatch } from './webhook-statement-batch.js';
import { WebhookFormat } from './webhook.entity.js';
import { webhookSettingsOf, type WebhookSettings } from './webhook.settings.js';

/**
 * Deliveries with their webhooks and events, for the jobs that start together (StatementBatch): one statement
 * per batch of attempts.
 */
const LOAD_DELIVERIES = `
  select d.id, d.organization_id, d.environment, d.status, d.attempt_count, d.manual_attempt, d.event_id,
         w.id as webhook_id, w.url, w.headers, w.enabled, w.format, w.signing_secret, w.previous_signing_secret,
         (extract(epoch from w.previous_secret_expires_at) * 1000)::float8 as previous_secret_expires_ms,
         e.payload
    from webhook_deliveries d
    join webhooks w on w.id = d.webhook_id
    join domain_events e on e.id = d.event_id
   where d.id in (?)`;

/**
 * The common case in one atomic statement for a batch of successful attempts: each attempt, its delivery's
 * outcome, the end of its webhook's failing run.
 */
const RECORD_SUCCESSES = `
  with success as (
    select * from jsonb_to_recordset(?::jsonb) as s(organization_id uuid, environment text, delivery_id uuid,
      webhook_id uuid, attempt_number int, attempted_at timestamptz, status_code int, latency_ms int)
  ), attempt as (
    insert into webhook_attempts
      (id, organization_id, environment, delivery_id, attempt_number, attempted_at, status_code, latency_ms, error)
    select gen_random_uuid(), organization_id, environment, delivery_id, attempt_number, attempted_at, status_code,
           latency_ms, null
      from success
  ), recovered as (
    update webhooks set failing_since = null
     where id in (select webhook_id from success) and failing_since is not null
  )
  update webhook_deliveries d
     set status = '${DeliveryStatus.SUCCEEDED}', attempt_count = s.attempt_number, last_attempt_at = s.attempted_at,
         last_status_code = s.status_code, last_error = null, next_attempt_at = null, completed_at = s.attempted_at,
         manual_attempt = false
    from success s
   where d.id = s.delivery_id`;

interface Success {
  organization_id: string;
  environment: string;
  delivery_id: string;
  webhook_id: string;
  attempt_number: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
}

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
  const connection = orm.em.getConnection();
  // The jobs running at once in this process share their statements (issue #31 goal 6, docs/webhooks.md).
  const loads = new StatementBatch<string, DueDelivery | undefined>(async (ids) => {
    const rows = await connection.execute<DueDelivery[]>(LOAD_DELIVERIES, [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });
  const successes = new StatementBatch<Success, void>(async (rows) => {
    await connection.execute(RECORD_SUCCESSES, [JSON.stringify(rows)], 'run');
    return rows.map(() => undefined);
  });
  return async (rawPayload) => {
    const { deliveryId } = rawPayload as DeliveryJobPayload;
    const delivery = await loads.call(deliveryId);
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
      await successes.call({
        organization_id: delivery.organization_id,
        environment: delivery.environment,
        delivery_id: delivery.id,
        webhook_id: delivery.webhook_id,
        attempt_number: attemptNumber,
        attempted_at: now,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
      });
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
