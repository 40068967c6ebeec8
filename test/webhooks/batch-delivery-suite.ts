import type { Task } from 'graphile-worker';
import { WEBHOOK_DELIVERY_TASK } from '../../src/webhooks/webhook-delivery.queue.js';
import type { OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * The world of the batch-delivery tests (delivery-batch, delivery-current-state, delivery-lock-order): a loopback
 * receiver and a server of their own (built in the worker's realm, test/helpers/realm-suite.ts) whose deliveries go
 * out in batches of 20, four batches at a time, with no job runner: the tests run the delivery task by hand. A
 * server of their own, not the shared one: they hold rows and locks and count statements while the task runs.
 */
export interface BatchDeliverySuite {
  app: RealmApp;
  org: OrganizationWithKeys;
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}

export async function startBatchDeliverySuite(): Promise<BatchDeliverySuite> {
  const receiver = await WebhookReceiver.start();
  const { app, org } = await realmSuite({
    webhooks: { allowPrivateTargets: true, batchSize: 20, batchConcurrency: 4 },
  });
  return {
    app,
    org,
    receiver,
    stop: async () => {
      await app.stop();
      await receiver.stop();
    },
  };
}

/**
 * The server's webhook delivery task (src/webhooks/webhook-delivery.task.ts), made once: runs of it that start
 * together share its statement batches, as the jobs of one process do. Called with the file's payloads and job
 * helpers (test/helpers/job-queue.ts's `jobHelpers`).
 */
export function deliveryTask(app: RealmApp): Promise<Task> {
  return onServer(app, 'taskOf', WEBHOOK_DELIVERY_TASK);
}
