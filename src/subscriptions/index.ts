import type { FeatureModule } from '../core/feature-module.js';
import { EventSubscriptionResolver } from './event-subscription.resolver.js';

/** GraphQL subscriptions over graphql-ws mirroring the webhook events (docs/subscriptions.md). */
export const subscriptionsModule: FeatureModule = {
  name: 'subscriptions',
  resolvers: [EventSubscriptionResolver],
};
