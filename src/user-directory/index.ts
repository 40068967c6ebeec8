import type { FeatureModule } from '../core/feature-module.js';
import { USER_DIRECTORY_ROUTES } from './user-directory.rest.js';
import { UserDirectoryResolver } from './user-directory.resolver.js';

/** The MSP portal's user search across every tenant (docs/user-directory.md). */
export const userDirectoryModule: FeatureModule = {
  name: 'user-directory',
  resolvers: [UserDirectoryResolver],
  routes: { api: USER_DIRECTORY_ROUTES },
};
