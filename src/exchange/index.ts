import type { FeatureModule } from '../core/feature-module.js';
import { RESTRICTED_USER_ROUTES } from './restricted-user.rest.js';
import { RestrictedUser } from './restricted-user.entity.js';
import { RestrictedUserResolver } from './restricted-user.resolver.js';

/** Exchange: users blocked from sending mail (SPEC 2.6, 3.3). */
export const exchangeModule: FeatureModule = {
  name: 'exchange',
  resolvers: [RestrictedUserResolver],
  entities: [RestrictedUser],
  routes: { api: RESTRICTED_USER_ROUTES },
  eventKinds: ['restricted_user.unblocked'],
};
