import {
  CANCEL_CLAIMED,
  CLAIM_FIRST_ATTEMPTS,
  RECLAIM_OWN_FIRST_ATTEMPTS,
} from './webhook-delivery-claims.js';
import type { DueDelivery } from './webhook-delivery.queue.js';
import { deliverClaimed, type DeliveryRuntime } from './webhook-attempt.js';

/**
 * The fan-out's job for one endpoint (issue #31 goal 6): every due first attempt of the webhook, taken
 * `batchSize` at a time in one claiming statement (oldest first; webhook-delivery-claims.ts) and attempted
 * `batchConcurrency` at once over the keep-alive agent, until none is left that no live job holds. Each
 * delivery keeps its own guarantees: attempted under its claim, recorded once (the successes of the attempts
 * ending together in one statement, a failure in its own transaction that queues that delivery's retry on the
 * schedule, as for a one-delivery job), retried on its own. The job itself completes once, instead of one job
 * fetched and completed per delivery.
 *
 * A process stopping raises the job's abort signal: no further batch is claimed, the attempts in flight end and are
 * recorded, and the job fails so that it runs again for what is left. A crash (kill -9) mid-batch: graphile-worker's job is released by the liveness sweep (or retried after a
 * thrown error) and runs again with the same id, taking back its own claims first: what was recorded is done,
 * what was claimed and not recorded is attempted again (at-least-once, same webhook-id). No order between an
 * endpoint's deliveries is promised (SPEC 6 and DECISIONS promise none; retries reorder them anyway): a batch
 * starts oldest first, and its attempts overlap.
 *
 * A webhook disabled during the batch (by its owner, or by the failure rule for one of these attempts) receives
 * nothing more than the attempts already on their way when a record saw it: each record answers whether the
 * webhook is still enabled, and then the batch claims no more and cancels what it had claimed and not attempted.
 */
export async function deliverEndpointBatch(
  runtime: DeliveryRuntime,
  webhookId: string,
  jobId: string,
  stopping?: AbortSignal,
) {
  const { batchSize, batchConcurrency, timeoutMs } = runtime.settings;
  // A claim outlives the attempts of its batch at their slowest, plus a minute for the statements around them.
  const leaseMs = Math.ceil(batchSize / batchConcurrency) * timeoutMs + 60_000;
  const queue: DueDelivery[] = [];
  // Ids taken in this run: a claiming statement never hands one out twice, this guards against it anyway.
  const taken = new Set<string>();
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  let stoppedEarly = false;
  let disabled = false;

  const take = (rows: DueDelivery[]) => {
    const fresh = rows.filter((row) => !taken.has(row.id));
    for (const row of fresh) taken.add(row.id);
    queue.push(...fresh);
    return fresh.length;
  };
  take(await runtime.execute(RECLAIM_OWN_FIRST_ATTEMPTS, [jobId, leaseMs, webhookId, jobId]));

  const claimMore = async () => {
    const rows = await runtime.execute(CLAIM_FIRST_ATTEMPTS, [jobId, leaseMs, webhookId, batchSize]);
    if (take(rows) === 0) exhausted = true;
  };
  // The next batch is claimed while the last attempts of this one are in flight, so the lanes rarely wait.
  const refill = () => {
    if (disabled) exhausted = true;
    if (stopping?.aborted && !exhausted) exhausted = stoppedEarly = true;
    if (!exhausted && claiming === null && queue.length < batchConcurrency)
      claiming = claimMore().finally(() => (claiming = null));
    return claiming;
  };
  const next = async (): Promise<DueDelivery | undefined> => {
    for (;;) {
      if (disabled) return undefined;
      const pending = refill();
      const delivery = queue.shift();
      if (delivery) return delivery;
      if (!pending) return undefined;
      await pending;
    }
  };
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    // A statement failed: the other lanes finish their attempts, then the job fails and runs again (its claims
    // are still its own, so what was not recorded is attempted again).
    failure ??= { error };
    exhausted = true;
  };
  const noteDisabled = (enabled: boolean) => {
    if (!enabled) disabled = true;
  };
  const records: Promise<void>[] = [];
  const lane = async () => {
    try {
      for (let delivery = await next(); delivery && !failure; delivery = await next()) {
        const { recorded } = await deliverClaimed(runtime, delivery, jobId);
        records.push(recorded.then(noteDisabled).catch(fail));
      }
    } catch (error) {
      fail(error);
    }
  };
  await Promise.all(Array.from({ length: batchConcurrency }, lane));
  await Promise.all(records);
  await claiming;
  if (disabled && queue.length > 0 && !failure)
    await runtime.execute(CANCEL_CLAIMED, [
      runtime.deps.clock.now(),
      queue.splice(0).map(({ id }) => id),
      jobId,
    ]);
  if (failure) throw (failure as { error: unknown }).error;
  // Stopped before the endpoint was drained: the job fails, so that it runs again (here or on another process)
  // for what is left; completing would leave those deliveries without a job.
  if (stoppedEarly)
    throw new Error(`stopped before the deliveries of webhook ${webhookId} were all attempted`);
}
