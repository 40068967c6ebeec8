import type { FeatureModule } from '../core/feature-module.js';
import { AnnouncedSignIn } from './announced-sign-in.entity.js';
import { riskySignInsSyncStep } from './risky-signins.js';

/** Risky sign-ins reported by the cloud, announced once as `security.risky_signin` events. */
export const securityModule: FeatureModule = {
  name: 'security',
  /** Which sign-ins were already announced, across organizations: read by the sync that announces them. */
  unscopedEntities: [AnnouncedSignIn],
  eventKinds: ['security.risky_signin'],
  syncStep: riskySignInsSyncStep,
};
