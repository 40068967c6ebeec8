import type { FeatureModule } from '../core/feature-module.js';
import { INTEGRATION_ROUTES } from './integration.rest.js';
import { Integration } from './integration.entity.js';
import { IntegrationResolver } from './integration.resolver.js';

/** Third-party integrations of an organization (SPEC 4.2 settings). */
export const integrationsModule: FeatureModule = {
  name: 'integrations',
  resolvers: [IntegrationResolver],
  entities: [Integration],
  routes: { api: INTEGRATION_ROUTES },
};
