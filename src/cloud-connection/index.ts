import type { FeatureModule } from '../core/feature-module.js';
import { CLOUD_CONNECTION_ROUTES } from './cloud-connection.rest.js';
import { CloudConnection } from './cloud-connection.entity.js';
import { CloudConnectionResolver } from './cloud-connection.resolver.js';

/** The live environment's connection to the real cloud (Microsoft 365), docs/microsoft365.md. */
export const cloudConnectionModule: FeatureModule = {
  name: 'cloud-connection',
  resolvers: [CloudConnectionResolver],
  entities: [CloudConnection],
  routes: { api: CLOUD_CONNECTION_ROUTES },
};
