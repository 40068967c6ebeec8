import type { EntityManager } from '@mikro-orm/postgresql';
import { systemClock } from '../core/clock.js';
import { WEBHOOK_DISABLED_EVENT } from '../core/events/event-kinds.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import { DeliveryStatus } from './webhook-delivery.entity.js';
import { CLAIM_HELD } from './webhook-delivery-claims.js';
import { QUEUE_ATTEMPT_SQL, type DueDelivery } from './webhook-delivery.queue.js';
import type { PostOutcome } from './webhook-http.js';
import { nextRetryDelayMs } from './webhook-retry.js';
import type { WebhookSettings } from './webhook.settings.js';

const INSERT_ATTEMPT = `
  insert into webhook_attempts
    (id, organization_id, environment, delivery_id, attempt_number, attempted_at, status_code, latency_ms, error)
  values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * Starts the webhook's run of failures unless one is running; returns when it started. A disabled webhook keeps
 * the state its disable left (an attempt in flight when it was disabled ends after it).
 */
const MARK_FAILING = `
  update webhooks set failing_since = case when enabled then coalesce(failing_since, ?) else failing_since end
   where id = ?
  returning (extract(epoch from failing_since) * 1000)::float8 as failing_since_ms, enabled`;

/** Only the transaction that flips `enabled` gets a row back, so the event is emitted once. */
const DISABLE_WEBHOOK = `
  update webhooks set enabled = false, disabled_at = ?, disabled_reason = ?, updated_at = ?
   where id = ? and enabled
  returning id, url`;

/** The webhook's other pending deliveries will not be attempted (disabled webhooks receive nothing). */
const CANCEL_PENDING = `
  update webhook_deliveries
     set status = '${DeliveryStatus.CANCELLED}', completed_at = ?, next_attempt_at = null,
         last_error = 'the webhook was disabled'
   where webhook_id = ? and status = '${DeliveryStatus.PENDING}' and id <> ?`;

const UPDATE_DELIVERY = `
  update webhook_deliveries
     set status = ?, attempt_count = ?, last_attempt_at = ?, last_status_code = ?, last_error = ?,
         next_attempt_at = ?, completed_at = ?, manual_attempt = false, claimed_by = null, claimed_until = null
   where id = ?`;

export interface FailedAttempt {
  delivery: DueDelivery;
  /** The job whose claim the attempt was made under (webhook-delivery-claims.ts). */
  claimedBy: string;
  attemptNumber: number;
  outcome: PostOutcome;
}

function disableReason(outcome: PostOutcome, failingSinceMs: number, settings: WebhookSettings, now: Date) {
  if (outcome.statusCode === 410) return 'the endpoint answered 410 Gone';
  if (now.getTime() - failingSinceMs >= settings.disableAfterFailingMs) {
    const days = Math.round(settings.disableAfterFailingMs / 86_400_000);
    return `every attempt failed for ${days} days (since ${new Date(failingSinceMs).toISOString()})`;
  }
  return null;
}

/**
 * Records a failed attempt and decides what follows, in one transaction: a retry on the schedule (or
 * later if Retry-After asks), the delivery's failure when retries are exhausted, or the webhook disabled
 * (410 Gone; 5 days of failures) with the event `webhook.disabled`. An attempt of a webhook disabled while it was
 * in flight re-opens nothing: recorded, its delivery Cancelled (as the disable cancelled the others), no retry.
 * Answers whether the webhook is still enabled (a batch stops attempting when it is not).
 */
export async function recordFailedAttempt(
  ctx: ServiceContext,
  settings: WebhookSettings,
  { delivery, claimedBy, attemptNumber, outcome }: FailedAttempt,
): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.em.transactional(async (em: EntityManager) => {
    // Recorded by the claimant only, once (a read, not a lock). The claim ends with the update below, so that the
    // retry's job may claim it.
    const [claim] = await em.execute<Array<{ id: string }>>(CLAIM_HELD, [delivery.id, claimedBy]);
    if (!claim) return true; // not this job's to record: another job's record says what follows
    // The webhook is locked first, then its deliveries (the attempt's row locks this delivery's key), the one order
    // of every transaction locking both (RECORD_SUCCESSES, a webhook's delete cascading to its deliveries).
    const [webhook] = await em.execute<Array<{ failing_since_ms: number; enabled: boolean }>>(MARK_FAILING, [
      now,
      delivery.webhook_id,
    ]);
    await em.execute(INSERT_ATTEMPT, [
      delivery.organization_id,
      delivery.environment,
      delivery.id,
      attemptNumber,
      now,
      outcome.statusCode,
      outcome.latencyMs,
      outcome.error,
    ]);
    const enabled = webhook?.enabled === true;
    const reason = webhook?.enabled ? disableReason(outcome, webhook.failing_since_ms, settings, now) : null;
    let status = DeliveryStatus.FAILED;
    let nextAttemptAt: Date | null = null;
    if (!enabled) {
      status = DeliveryStatus.CANCELLED;
    } else if (reason) {
      await disableWebhook({ ...ctx, em }, delivery, reason, now);
    } else if (!delivery.manual_attempt) {
      const delayMs = nextRetryDelayMs(
        attemptNumber,
        { statusCode: outcome.statusCode, retryAfter: outcome.headers['retry-after'] },
        settings,
        systemClock.now().getTime(),
      );
      if (delayMs !== null) {
        status = DeliveryStatus.PENDING;
        nextAttemptAt = new Date(now.getTime() + delayMs);
        await em.execute(QUEUE_ATTEMPT_SQL, [delivery.id, delayMs]);
      }
    }
    await em.execute(UPDATE_DELIVERY, [
      status,
      attemptNumber,
      now,
      outcome.statusCode,
      outcome.error,
      nextAttemptAt,
      status === DeliveryStatus.PENDING ? null : now,
      delivery.id,
    ]);
    return enabled && !reason;
  });
}

async function disableWebhook(ctx: ServiceContext, delivery: DueDelivery, reason: string, now: Date) {
  const disabled = await ctx.em.execute<Array<{ id: string; url: string }>>(DISABLE_WEBHOOK, [
    now,
    reason,
    now,
    delivery.webhook_id,
  ]);
  if (disabled.length === 0) return; // another attempt disabled it first
  await ctx.em.execute(CANCEL_PENDING, [now, delivery.webhook_id, delivery.id]);
  await emitEvent(ctx, {
    kind: WEBHOOK_DISABLED_EVENT,
    severity: 'high',
    tenant: null,
    // The host only: a URL's path and query often carry a token (chat incoming webhooks always do).
    details: { webhookId: delivery.webhook_id, host: new URL(disabled[0].url).host, reason },
    actionPath: `/webhooks/${delivery.webhook_id}`,
  });
}
