import type { FeatureModule } from '../core/feature-module.js';
import { WEBHOOK_ROUTES } from './webhook.rest.js';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity.js';
import { WEBHOOK_DELIVERY_TASK } from './webhook-delivery.queue.js';
import { webhookDeliveryTask } from './webhook-delivery.task.js';
import { Webhook } from './webhook.entity.js';
import { WebhookDeliveryResolver, WebhookResolver } from './webhook.resolver.js';
import { webhookFanOut } from './webhook-fanout.js';

/** Webhooks: endpoints, signed deliveries with retries, the delivery log (SPEC 6). */
export const webhooksModule: FeatureModule = {
  name: 'webhooks',
  resolvers: [WebhookResolver, WebhookDeliveryResolver],
  entities: [Webhook, WebhookDelivery, WebhookAttempt],
  tasks: { [WEBHOOK_DELIVERY_TASK]: webhookDeliveryTask },
  routes: { v1: WEBHOOK_ROUTES },
  eventKinds: ['webhook.test', 'webhook.disabled'],
  outboxSubscribers: [webhookFanOut],
};
