import type { FeatureModule } from '../core/feature-module.js';
import { USER_MANAGEMENT_ROUTES } from './user-management.rest.js';
import { USER_IMPORT_ROUTES } from './user-import.rest.js';
import { OFFBOARDING_ROUTES } from './offboarding.rest.js';
import { ONEDRIVE_ROUTES } from './onedrive.rest.js';
import { UserOffboarding } from './offboarding.entity.js';
import { OffboardingResolver } from './offboarding.resolver.js';
import { USER_OFFBOARDING_TASK } from './offboarding.service.js';
import { userOffboardingTask } from './offboarding.task.js';
import { OneDriveResolver } from './onedrive.resolver.js';
import { UserImport, UserImportRow } from './user-import.entity.js';
import { UserImportResolver } from './user-import.resolver.js';
import { USER_IMPORT_TASK } from './user-import.service.js';
import { userImportTask } from './user-import.task.js';
import { UserManagementResolver } from './user-management.resolver.js';

/** User management (SPEC 4.2): profiles, bulk import, password resets, offboarding, OneDrive access. */
export const userManagementModule: FeatureModule = {
  name: 'user-management',
  resolvers: [UserManagementResolver, UserImportResolver, OffboardingResolver, OneDriveResolver],
  entities: [UserImport, UserImportRow, UserOffboarding],
  tasks: { [USER_IMPORT_TASK]: userImportTask, [USER_OFFBOARDING_TASK]: userOffboardingTask },
  routes: {
    api: [...USER_MANAGEMENT_ROUTES, ...USER_IMPORT_ROUTES, ...OFFBOARDING_ROUTES, ...ONEDRIVE_ROUTES],
  },
};
