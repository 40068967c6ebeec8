import type { FeatureModule } from '../core/feature-module.js';
import { LICENSE_ROUTES } from './license.rest.js';
import { LicenseAssignment, TenantLicense } from './license.entity.js';
import { LicenseResolver } from './license.resolver.js';
import { licensesSyncStep } from './license-sync.js';

/** A tenant's licenses and their assignments (SPEC 4.1). */
export const licensesModule: FeatureModule = {
  name: 'licenses',
  resolvers: [LicenseResolver],
  entities: [TenantLicense, LicenseAssignment],
  routes: { v1: LICENSE_ROUTES },
  eventKinds: ['license.assigned', 'license.removed'],
  syncStep: licensesSyncStep,
};
