import type { FeatureModule } from '../core/feature-module.js';
import { API_KEY_ROUTES } from './api-key.rest.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyResolver } from './api-key.resolver.js';

/** API keys of an organization (SPEC 5.1): stored hashed, the secret shown once. */
export const apiKeysModule: FeatureModule = {
  name: 'api-keys',
  resolvers: [ApiKeyResolver],
  entities: [ApiKey],
  routes: { api: API_KEY_ROUTES },
};
