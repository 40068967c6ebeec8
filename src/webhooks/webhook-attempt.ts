import type { MikroORM } from '@mikro-orm/postgresql';
import { createJobContext } from '../context.js';
import { systemClock } from '../core/clock.js';
import { recordWebhookAttempt } from '../core/metrics.js';
import type { EventPayload } from '../core/events/event-filter.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import { chatMessageBody } from '../integrations/integration-messages.js';
import { CANCEL_CLAIMED, type Success } from './webhook-delivery-claims.js';
import type { DueDelivery } from './webhook-delivery.queue.js';
import { recordFailedAttempt } from './webhook-failure.js';
import { postDelivery, type PostOutcome } from './webhook-http.js';
import { signatureHeaders } from './webhook-signing.js';
import type { StatementBatch } from './webhook-statement-batch.js';
import { WebhookFormat } from './webhook.entity.js';
import type { WebhookSettings } from './webhook.settings.js';

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

/** What attempting claimed deliveries needs: per job run (its settings), sharing the task's statements. */
export interface DeliveryRuntime {
  orm: MikroORM;
  deps: AppDeps;
  settings: WebhookSettings;
  /** Opened secrets by sealed value: a batch of one endpoint opens its secret once, not per delivery. */
  open: (sealed: string) => string;
  /** The successes of the attempts running at once, one statement (StatementBatch): is the webhook enabled? */
  successes: StatementBatch<Success, boolean>;
  execute: (sql: string, params: unknown[]) => Promise<DueDelivery[]>;
}

function attempt(runtime: DeliveryRuntime, delivery: DueDelivery, businessNow: Date): Promise<PostOutcome> {
  const { settings, open } = runtime;
  const body = bodyOf(delivery);
  const previousActive =
    delivery.previous_signing_secret !== null &&
    delivery.previous_secret_expires_ms !== null &&
    delivery.previous_secret_expires_ms > businessNow.getTime();
  const headers: Record<string, string> = {};
  for (const [name, sealed] of Object.entries(delivery.headers ?? {})) headers[name] = open(sealed);
  return postDelivery({
    url: delivery.url,
    body,
    timeoutMs: settings.timeoutMs,
    resolveForCheck: settings.allowPrivateTargets ? undefined : settings.resolveHost,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      // The event id is the message id: the same on every attempt, so receivers can de-duplicate.
      ...signatureHeaders(delivery.event_id, systemClock.now(), body, {
        current: open(delivery.signing_secret),
        previous: previousActive ? open(delivery.previous_signing_secret!) : null,
      }),
    },
  });
}

/**
 * An attempt made, its record on its way (a success waits for the next shared statement), which answers whether
 * the webhook was still enabled when it was recorded.
 */
export interface Attempted {
  recorded: Promise<boolean>;
}

/**
 * One attempt of a delivery the job `jobId` has claimed: POST, then record the attempt and what follows (success;
 * or a retry queued on the schedule; or failure, 410 and 5 days of failures disabling the webhook), or cancel it
 * when its webhook is disabled. Answers once the POST is over: a batch goes on to its next attempt while this
 * one is recorded (its claim covers it until then).
 */
export async function deliverClaimed(
  runtime: DeliveryRuntime,
  delivery: DueDelivery,
  jobId: string,
): Promise<Attempted> {
  const { deps, settings } = runtime;
  if (!delivery.enabled) {
    const cancel = runtime.orm.em
      .getConnection()
      .execute(CANCEL_CLAIMED, [deps.clock.now(), [delivery.id], jobId]);
    return { recorded: cancel.then(() => false) };
  }
  const outcome = await attempt(runtime, delivery, deps.clock.now());
  const now = deps.clock.now();
  const attemptNumber = delivery.attempt_count + 1;
  recordWebhookAttempt(outcome.error === null, outcome.latencyMs);
  if (outcome.error === null) {
    const recorded = runtime.successes.call({
      organization_id: delivery.organization_id,
      environment: delivery.environment,
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      claimed_by: jobId,
      attempt_number: attemptNumber,
      attempted_at: now,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
    });
    return { recorded };
  }
  const scope: Scope = { organizationId: delivery.organization_id, environment: delivery.environment };
  const recorded = recordFailedAttempt(
    createJobContext(runtime.orm, deps, scope, 'system:webhooks'),
    settings,
    {
      delivery,
      claimedBy: jobId,
      attemptNumber,
      outcome,
    },
  );
  return { recorded };
}
