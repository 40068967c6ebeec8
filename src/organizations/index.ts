import type { FeatureModule } from '../core/feature-module.js';
import { Organization } from './organization.entity.js';

/** The MSPs themselves: every scoped row belongs to one. */
export const organizationsModule: FeatureModule = {
  name: 'organizations',
  unscopedEntities: [Organization],
};
