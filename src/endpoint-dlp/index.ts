import type { FeatureModule } from '../core/feature-module.js';
import { DLP_ROUTES } from './dlp.rest.js';
import { EndpointDlpAlert, EndpointDlpPolicy } from './dlp.entity.js';
import { EndpointDlpResolver } from './dlp.resolver.js';
import { endpointDlpSyncStep } from './dlp-sync.js';

/** Endpoint data-loss-prevention policies and alerts (SPEC 4.2 security). */
export const endpointDlpModule: FeatureModule = {
  name: 'endpoint-dlp',
  resolvers: [EndpointDlpResolver],
  entities: [EndpointDlpPolicy, EndpointDlpAlert],
  routes: { api: DLP_ROUTES },
  syncStep: endpointDlpSyncStep,
};
