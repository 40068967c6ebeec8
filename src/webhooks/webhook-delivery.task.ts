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
 *
 * The webhook settings are read at each job run (`webhookSettingsOf(deps)`: one object, spread), as requests read
 * them at each use, never kept from when the task list was built: whoever changes `AppDeps.webhooks` (a test
 * server giving each file its own) changes what the next job does.
 */
export function webhookDeliveryTask(orm: MikroORM, deps: AppDeps): Task {
  const connection = orm.em.getConnection();
  // Opened secrets by sealed value (a sealed value opens to the same secret under any box that can open it).
  const opened = new Map<string, string>();
  const shared = {
    orm,
    deps,
    successes: new StatementBatch<Success, boolean>(async (rows) => {
      const webhooks = await connection.execute<Array<{ webhook_id: string; enabled: boolean }>>(
        RECORD_SUCCESSES,
        [JSON.stringify(rows)],
      );
      const enabled = new Map(webhooks.map((webhook) => [webhook.webhook_id, webhook.enabled]));
      return rows.map((row) => enabled.get(row.webhook_id) === true);
    }),
    execute: (sql: string, params: unknown[]) => connection.execute<DueDelivery[]>(sql, params),
  };
  const runtimeOf = (settings: WebhookSettings): DeliveryRuntime => ({
    ...shared,
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
  });
  const claims = new StatementBatch<{ id: string; job: string }, DueDelivery | undefined>(async (claims) => {
    const lease = claimLeaseMs(webhookSettingsOf(deps));
    const rows = await shared.execute(CLAIM_DELIVERIES, [JSON.stringify(claims), lease]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return claims.map((claim) => byId.get(claim.id));
  });
  return async (rawPayload, helpers) => {
    const payload = rawPayload as DeliveryJobPayload;
    const jobId = String(helpers.job.id);
    const runtime = runtimeOf(webhookSettingsOf(deps));
    if ('webhookId' in payload)
      return deliverEndpointBatch(runtime, payload.webhookId, jobId, helpers.abortSignal);
    const delivery = await claims.call({ id: payload.deliveryId, job: jobId });
    if (delivery) await (await deliverClaimed(runtime, delivery, jobId)).recorded;
  };
}
