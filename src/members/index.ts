import type { FeatureModule } from '../core/feature-module.js';
import { MEMBER_ROUTES } from './member.rest.js';
import { Member } from './member.entity.js';
import { MemberResolver } from './member.resolver.js';

/** People of an MSP who sign in to the platform (SPEC 4.2 settings). */
export const membersModule: FeatureModule = {
  name: 'members',
  resolvers: [MemberResolver],
  /** A member signs in to both environments of the organization, so the row is outside the environment scope. */
  unscopedEntities: [Member],
  routes: { api: MEMBER_ROUTES },
};
