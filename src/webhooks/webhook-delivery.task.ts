import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../core/service-context.js';
import { deliverClaimed, type DeliveryRuntime } from './webhook-attempt.js';
import { CLAIM_DELIVERIES, RECORD_SUCCESSES, type Success } from './webhook-delivery-claims.js';
import type { DeliveryJobPayload, DueDelivery } from './webhook-delivery.queue.js';
import { deliverEndpointBatch } from './webhook-endpoint-batch.js';
import { StatementBatch } from './webhook-statement-batch.js';
import { webhookSettingsOf, type WebhookSettings } from './webhook.settings.js';

/** How long a one-delivery job's claim lasts: its attempt's limit, and a minute for the statements around it. */
const claimLeaseMs = (settings: WebhookSettings) => settings.timeoutMs + 60_000;

/**
 * The delivery task. `{deliveryId}` (a retry, a re-send, a test ping): claim that delivery and attempt it; a
 * delivery no longer pending (re-sent, cancelled, done) or claimed by another live job is left alone.
 * `{webhookId}` (the fan-out's job): every due first attempt of that endpoint, in batches
 * (webhook-endpoint-batch.ts). The one-delivery jobs running at once in this process share their statements
 * (issue #31 goal 6, webhook-statement-batch.ts).
 */
export function webhookDeliveryTask(orm: MikroORM, deps: AppDeps): Task {
  const settings = webhookSettingsOf(deps);
  const connection = orm.em.getConnection();
  const opened = new Map<string, string>();
  const runtime: DeliveryRuntime = {
    orm,
    deps,
    settings,
    open: (sealed) => {
      let value = opened.get(sealed);
      if (value === undefined) {
        if (opened.size > 1_000) opened.clear();
        value = settings.secretBox.open(sealed);
        opened.set(sealed, value);
      }
      return value;
    },
    successes: new StatementBatch<Success, void>(async (rows) => {
      await connection.execute(RECORD_SUCCESSES, [JSON.stringify(rows)], 'run');
      return rows.map(() => undefined);
    }),
    execute: (sql, params) => connection.execute<DueDelivery[]>(sql, params),
  };
  const claims = new StatementBatch<{ id: string; job: string }, DueDelivery | undefined>(async (claims) => {
    const rows = await runtime.execute(CLAIM_DELIVERIES, [JSON.stringify(claims), claimLeaseMs(settings)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return claims.map((claim) => byId.get(claim.id));
  });
  return async (rawPayload, helpers) => {
    const payload = rawPayload as DeliveryJobPayload;
    const jobId = String(helpers.job.id);
    if ('webhookId' in payload)
      return deliverEndpointBatch(runtime, payload.webhookId, jobId, helpers.abortSignal);
    const delivery = await claims.call({ id: payload.deliveryId, job: jobId });
    if (delivery) await (await deliverClaimed(runtime, delivery, jobId)).recorded;
  };
}
