import type { RouteDefinition } from '../route.js';
import { BACKUP_ROUTES } from './backup.routes.js';
import { COMPLIANCE_ROUTES } from './compliance.routes.js';
import { EXCHANGE_ROUTES } from './exchange.routes.js';
import { IDENTITY_ROUTES } from './identity.routes.js';
import { INTEGRATION_ROUTES } from './integrations.routes.js';
import { LICENSE_ROUTES } from './licenses.routes.js';
import { PORTAL_ROUTES } from './portal.routes.js';
import { SECURITY_ROUTES } from './security.routes.js';
import { SECURITY_POSTURE_ROUTES } from './security-posture.routes.js';
import { SETTINGS_ROUTES } from './settings.routes.js';
import { TENANT_ROUTES } from './tenants.routes.js';
import { USER_ROUTES } from './users.routes.js';
import { USER_MANAGEMENT_ROUTES } from './user-management.routes.js';
import { WEBHOOK_ROUTES } from './webhooks.routes.js';
import { DEVICE_MANAGEMENT_ROUTES } from './device-management.routes.js';
import { TENANT_GROUP_ROUTES } from './tenant-groups.routes.js';

/** Routes of the versioned API (SPEC 4.1), served under /v1. */
export const VERSIONED_ROUTES: RouteDefinition[] = [
  ...TENANT_ROUTES,
  ...USER_ROUTES,
  ...LICENSE_ROUTES,
  ...WEBHOOK_ROUTES,
];

/** Feature routes (SPEC 4.2), served under /api and /v1/api. */
export const FEATURE_ROUTES: RouteDefinition[] = [
  ...INTEGRATION_ROUTES,
  ...SETTINGS_ROUTES,
  ...PORTAL_ROUTES,
  ...IDENTITY_ROUTES,
  ...EXCHANGE_ROUTES,
  ...SECURITY_ROUTES,
  ...BACKUP_ROUTES,
  ...COMPLIANCE_ROUTES,
  ...SECURITY_POSTURE_ROUTES,
  ...USER_MANAGEMENT_ROUTES,
  ...DEVICE_MANAGEMENT_ROUTES,
  ...TENANT_GROUP_ROUTES,
];
