import type { OrganizationWithKeys } from '../factories/organizations.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * The world of the batch-delivery race tests (delivery-current-state, delivery-lock-order): a loopback receiver
 * and an app of their own whose deliveries go out in batches of 20, four batches at a time. In its own module,
 * not webhook-kit.ts, which files on the shared server import (this one evaluates the app).
 */
export interface BatchDeliverySuite {
  app: TestApp;
  org: OrganizationWithKeys;
  receiver: WebhookReceiver;
  stop(): Promise<void>;
}

export async function startBatchDeliverySuite(): Promise<BatchDeliverySuite> {
  const receiver = await WebhookReceiver.start();
  const { app, org } = await startSuite({
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
