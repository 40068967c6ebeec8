import type { FeatureModule } from '../core/feature-module.js';
import { RestrictedUser } from './restricted-user.entity.js';
import { RestrictedUserResolver } from './restricted-user.resolver.js';

/** Exchange: users blocked from sending mail (SPEC 2.6, 3.3). */
export const exchangeModule: FeatureModule = {
  name: 'exchange',
  resolvers: [RestrictedUserResolver],
  entities: [RestrictedUser],
  eventKinds: ['restricted_user.unblocked'],
};
