import type { FeatureModule } from '../core/feature-module.js';
import { ActorResolver } from './actor.resolver.js';

/** Who did something (members, API keys, OAuth clients, the system), resolved for every feature's audit fields. */
export const actorsModule: FeatureModule = {
  name: 'actors',
  resolvers: [ActorResolver],
};
