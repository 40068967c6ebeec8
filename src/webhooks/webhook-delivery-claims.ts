import { DeliveryStatus } from './webhook-delivery.entity.js';

/**
 * The statements of the delivery jobs (issue #31 goal 6). A job attempts a delivery only after claiming it
 * (`claimed_by` = its graphile-worker job id, until `claimed_until`), and records an attempt only while the
 * claim is still its own, which then ends (the columns go back to null). So:
 *  - two jobs never attempt a delivery at once (an endpoint's batch job and a re-send's job, two batch jobs of one
 *    endpoint);
 *  - a job run again after a crash (the same job id: graphile-worker's retry, or the liveness sweep releasing a
 *    dead worker's job) takes back its own claims at once, so nothing it had claimed is left without a job;
 *  - a claim whose job is gone for good (failed past its attempts) expires, and another job may take it;
 *  - an attempt is recorded once: by its claimant, never by a job whose claim expired and was taken over (that
 *    attempt's POST is then one the receiver de-duplicates by webhook-id, as after any crash).
 */

/** A delivery with its webhook and event: what an attempt needs. `d`, `w`, `e` as in the statements below. */
const DELIVERY_COLUMNS = `d.id, d.organization_id, d.environment, d.status, d.attempt_count, d.manual_attempt,
  d.event_id, w.id as webhook_id, w.url, w.headers, w.enabled, w.format, w.signing_secret, w.previous_signing_secret,
  (extract(epoch from w.previous_secret_expires_at) * 1000)::float8 as previous_secret_expires_ms, e.payload`;

/**
 * Claims the listed deliveries for their jobs (a JSON array of {id, job}) for a lease of `?` ms, those still
 * pending and not claimed by a live job, and returns them with their webhooks and events: the one-delivery jobs
 * that start together share this statement (StatementBatch).
 */
export const CLAIM_DELIVERIES = `
  with claim as (
    select * from jsonb_to_recordset(?::jsonb) as c(id uuid, job bigint)
  ), claimed as (
    update webhook_deliveries d set claimed_by = c.job, claimed_until = now() + ? * interval '1 millisecond'
      from claim c
     where d.id = c.id and d.status = '${DeliveryStatus.PENDING}'
       and (d.claimed_by is null or d.claimed_by = c.job or d.claimed_until < now())
    returning d.*
  )
  select ${DELIVERY_COLUMNS}
    from claimed d
    join webhooks w on w.id = d.webhook_id
    join domain_events e on e.id = d.event_id`;

/** The pending first attempts of webhook `?` (the partial index webhook_deliveries_first_attempts_index). */
const FIRST_ATTEMPTS = `
  select d.id from webhook_deliveries d
   where d.webhook_id = ? and d.status = '${DeliveryStatus.PENDING}' and d.attempt_count = 0`;

const claimed = (where: string, limit: string) => `
  with claimed as (
    update webhook_deliveries d set claimed_by = ?, claimed_until = now() + ? * interval '1 millisecond'
     where d.id = any(array(${FIRST_ATTEMPTS} and ${where} order by d.created_at ${limit} for update skip locked))
    returning d.*
  )
  select ${DELIVERY_COLUMNS}
    from claimed d
    join webhooks w on w.id = d.webhook_id
    join domain_events e on e.id = d.event_id
   order by d.created_at`;

/**
 * An endpoint's batch job starting (again): the first attempts its earlier run had claimed when it stopped (a
 * crash), claimed anew. Parameters: job id, lease ms, webhook id, job id.
 */
export const RECLAIM_OWN_FIRST_ATTEMPTS = claimed('d.claimed_by = ?', '');

/**
 * The next batch of an endpoint's first attempts, oldest first, that no live job has claimed. Parameters: job
 * id, lease ms, webhook id, batch size.
 */
export const CLAIM_FIRST_ATTEMPTS = claimed('(d.claimed_by is null or d.claimed_until < now())', 'limit ?');

/**
 * The common case in one atomic statement for a batch of successful attempts: each delivery whose claim is its
 * job's, its outcome, its attempt, the end of its webhook's failing run; answers each webhook's `enabled`.
 *
 * A webhook disabled while the attempt was in flight (by its owner, or by the failure rule for another of its
 * deliveries, whose CANCEL_PENDING cancelled this one under its claim) stays as the disable left it: its
 * `failing_since` is the run that disabled it (shown beside `disabledReason`) and only a person re-enabling it
 * clears it (webhook.service.ts). The delivery itself is Succeeded, cancelled or not: the receiver has it, and its
 * attempt is in the log like every attempt. The conditions are on the rows' current state, so a disable committed
 * while this statement waits for the row is seen (PostgreSQL re-checks an updated row's condition).
 *
 * Lock order, webhook before its deliveries, as every transaction that locks both takes them: a disable (the
 * failure rule locks the webhook, then cancels its pending deliveries; webhook-failure.ts) and a delete (the
 * webhook, then its deliveries by cascade). `locked` takes the statement's webhooks first, in id order, and a
 * delivery is updated only through its locked webhook (the join emits a delivery's row after its webhook's lock),
 * so a disable and a success record of one webhook wait for each other instead of deadlocking (each holding rows
 * the other needs). FOR NO KEY UPDATE, not FOR SHARE: `recovered` may update the row, and two statements holding
 * it shared would each wait for the other to upgrade. It does not serialise the burst: a process's records are one
 * statement at a time already (StatementBatch), and the lock lasts one autocommit statement. `enabled` is
 * answered from `locked`, the row's current state, not the statement's snapshot.
 */
export const RECORD_SUCCESSES = `
  with success as (
    select * from jsonb_to_recordset(?::jsonb) as s(organization_id uuid, environment text, delivery_id uuid,
      webhook_id uuid, claimed_by bigint, attempt_number int, attempted_at timestamptz, status_code int,
      latency_ms int)
  ), locked as materialized (
    select w.id, w.enabled from webhooks w
     where w.id in (select webhook_id from success)
     order by w.id
       for no key update
  ), recorded as (
    update webhook_deliveries d
       set status = '${DeliveryStatus.SUCCEEDED}', attempt_count = s.attempt_number, last_attempt_at = s.attempted_at,
           last_status_code = s.status_code, last_error = null, next_attempt_at = null, completed_at = s.attempted_at,
           manual_attempt = false, claimed_by = null, claimed_until = null
      from success s
      join locked l on l.id = s.webhook_id
     where d.id = s.delivery_id and d.webhook_id = l.id and d.claimed_by = s.claimed_by
       and d.status in ('${DeliveryStatus.PENDING}', '${DeliveryStatus.CANCELLED}')
    returning d.id, d.webhook_id
  ), attempt as (
    insert into webhook_attempts
      (id, organization_id, environment, delivery_id, attempt_number, attempted_at, status_code, latency_ms, error)
    select gen_random_uuid(), organization_id, environment, delivery_id, attempt_number, attempted_at, status_code,
           latency_ms, null
      from success where delivery_id in (select id from recorded)
  ), recovered as (
    update webhooks set failing_since = null
     where id in (select webhook_id from recorded) and failing_since is not null and enabled
  )
  select l.id as webhook_id, l.enabled from locked l`;

export interface Success {
  organization_id: string;
  environment: string;
  delivery_id: string;
  webhook_id: string;
  /** The job whose claim this attempt was made under. */
  claimed_by: string;
  attempt_number: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
}

/** Whether delivery `?` is still claimed by job `?` (before its failed attempt is recorded). */
export const CLAIM_HELD = `select id from webhook_deliveries where id = ? and claimed_by = ?`;

/**
 * The claimed deliveries of a disabled webhook are not attempted: cancelled, and their claims end (those the
 * disable already cancelled under the claim too). Parameters: at, delivery ids, job id.
 */
export const CANCEL_CLAIMED = `
  update webhook_deliveries
     set status = '${DeliveryStatus.CANCELLED}', completed_at = coalesce(completed_at, ?), next_attempt_at = null,
         last_error = case when status = '${DeliveryStatus.PENDING}' then 'the webhook is disabled' else last_error end, claimed_by = null, claimed_until = null
   where id in (?) and claimed_by = ?
     and status in ('${DeliveryStatus.PENDING}', '${DeliveryStatus.CANCELLED}')`;
