import type { EventPayload } from '../core/events/event-filter.js';
import type { Environment } from '../core/scope.js';
import type { DeliveryStatus } from './webhook-delivery.entity.js';
import type { WebhookFormat } from './webhook.entity.js';

/**
 * How deliveries reach the job queue (graphile-worker, in PostgreSQL). Every statement here runs in the
 * caller's transaction or is a single atomic statement, so a delivery row and its job commit together.
 * Each delivery has one job key: queuing it again (a retry, a manual re-send) replaces its pending job
 * instead of adding a second one.
 */
export const WEBHOOK_DELIVERY_TASK = 'webhooks.deliver';

/**
 * A delivery job attempts one delivery (`deliveryId`: a retry, a re-send, a test ping) or the due first attempts
 * of one endpoint, as many as there are when it runs (`webhookId`: the event fan-out; webhook-endpoint-batch.ts).
 */
export type DeliveryJobPayload = { deliveryId: string } | { webhookId: string };

/** A job that throws (database trouble, not an HTTP failure) is retried by the queue this many times. */
const JOB_MAX_ATTEMPTS = 10;

/**
 * The add_job call for the delivery whose id and delay (ms) are the columns `id` and `delay` of `source`;
 * through enqueue_job, which the request path's role may call (db/row-level-security.ts).
 */
const addDeliveryJob = (source: string) => `
  enqueue_job('${WEBHOOK_DELIVERY_TASK}', json_build_object('deliveryId', ${source}.id),
    run_at => now() + ${source}.delay * interval '1 millisecond',
    max_attempts => ${JOB_MAX_ATTEMPTS}, job_key => 'webhook-delivery:' || ${source}.id)`;

/**
 * The setting (transaction-local) that says this transaction has already queued the batch job of the webhook
 * whose id is the uuid expression `webhookId`: a transaction recording many events for one endpoint (a large
 * tenant sync) queues one job for them all. Rolled back with a savepoint like the job it stands for.
 */
const batchQueuedSetting = (webhookId: string) =>
  `'msp_webhooks.batch_' || replace(${webhookId}::text, '-', '')`;

/**
 * New deliveries of one event to the given webhooks (a JSON array of ids), written with the event (the
 * fan-out, src/webhooks/webhook-fanout.ts). Their first attempts are one job per webhook and transaction, which
 * takes every due first attempt of its endpoint when it runs (webhook-endpoint-batch.ts): queued with the first of
 * the transaction's deliveries to that webhook, so it commits with them. No job key: concurrent transactions
 * never wait on each other's job row. A pair that already exists is skipped.
 * Parameters: organization id, environment, event id, event kind, created at, webhook ids (JSON).
 */
export const QUEUE_DELIVERIES_SQL = `
  with inserted as (
    insert into webhook_deliveries
      (id, organization_id, environment, webhook_id, event_id, event, status, attempt_count, manual_attempt,
       created_at)
    select gen_random_uuid(), ?, ?, ids.webhook_id::uuid, ?, ?, 'Pending', 0, false, ?
      from json_array_elements_text(?::json) as ids(webhook_id)
    on conflict (webhook_id, event_id) do nothing
    returning webhook_id
  )
  select count(enqueue_job('${WEBHOOK_DELIVERY_TASK}', json_build_object('webhookId', webhook_id),
                 max_attempts => ${JOB_MAX_ATTEMPTS}))
       + count(set_config(${batchQueuedSetting('webhook_id')}, 'queued', true)) as queued
    from inserted
   where coalesce(current_setting(${batchQueuedSetting('webhook_id')}, true), '') = ''`;

/** Queues the next attempt of a delivery after a delay in ms (database time). Parameters: delivery id, delay. */
export const QUEUE_ATTEMPT_SQL = `
  select ${addDeliveryJob('next')} is not null as queued from (select ?::uuid as id, ?::bigint as delay) next`;

/** A delivery due for an attempt, with its webhook and event, as the delivery task loads it (one statement). */
export interface DueDelivery {
  id: string;
  organization_id: string;
  environment: Environment;
  status: DeliveryStatus;
  attempt_count: number;
  manual_attempt: boolean;
  event_id: string;
  webhook_id: string;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  format: WebhookFormat;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_ms: number | null;
  payload: EventPayload;
}
