import type { RouteMount } from '../rest-adapter/route.js';
import type { FeatureModule } from './core/feature-module.js';
import { actorsModule } from './actors/index.js';
import { alertsModule } from './alerts/index.js';
import { apiKeysModule } from './api-keys/index.js';
import { backupModule } from './backup/index.js';
import { cloudConnectionModule } from './cloud-connection/index.js';
import { complianceModule } from './compliance/index.js';
import { contactsModule } from './contacts/index.js';
import { deviceManagementModule } from './device-management/index.js';
import { devicesModule } from './devices/index.js';
import { endpointDlpModule } from './endpoint-dlp/index.js';
import { exchangeModule } from './exchange/index.js';
import { housekeepingModule } from './housekeeping/index.js';
import { infoBarriersModule } from './info-barriers/index.js';
import { integrationsModule } from './integrations/index.js';
import { licensesModule } from './licenses/index.js';
import { membersModule } from './members/index.js';
import { oauthModule } from './oauth/index.js';
import { organizationsModule } from './organizations/index.js';
import { portalModule } from './portal/index.js';
import { recommendationsModule } from './recommendations/index.js';
import { secureScoreModule } from './secure-score/index.js';
import { securityModule } from './security/index.js';
import { subscriptionsModule } from './subscriptions/index.js';
import { syncStepsOf } from './sync/sync-steps.js';
import type { SyncStep } from './sync/sync-step.js';
import { tenantGroupsModule } from './tenant-groups/index.js';
import { tenantsModule } from './tenants/index.js';
import { userDirectoryModule } from './user-directory/index.js';
import { userManagementModule } from './user-management/index.js';
import { usersModule } from './users/index.js';
import { webhooksModule } from './webhooks/index.js';

/**
 * THE list of features. The GraphQL schema (schema.ts), the ORM's entities (db/entities.ts), the job queue's
 * tasks and schedule (tasks.ts), the REST route table and the OpenAPI document (rest-routes.ts) and the steps
 * of a tenant sync (SYNC_STEPS) are derived from it: a new feature is a folder with an `index.ts` exporting
 * its FeatureModule, plus one line here.
 */
export const FEATURE_MODULES: readonly FeatureModule[] = [
  organizationsModule,
  tenantsModule,
  apiKeysModule,
  licensesModule,
  usersModule,
  contactsModule,
  exchangeModule,
  subscriptionsModule,
  webhooksModule,
  integrationsModule,
  cloudConnectionModule,
  membersModule,
  oauthModule,
  portalModule,
  alertsModule,
  devicesModule,
  endpointDlpModule,
  backupModule,
  complianceModule,
  recommendationsModule,
  secureScoreModule,
  infoBarriersModule,
  userManagementModule,
  deviceManagementModule,
  tenantGroupsModule,
  userDirectoryModule,
  actorsModule,
  securityModule,
  housekeepingModule,
];

/** Routes of the versioned API (SPEC 4.1), served under /v1. */
export const VERSIONED_ROUTES = FEATURE_MODULES.flatMap((feature) => feature.routes?.v1 ?? []);

/** Feature routes (SPEC 4.2), served under /api and /v1/api. */
export const FEATURE_ROUTES = FEATURE_MODULES.flatMap((feature) => feature.routes?.api ?? []);

/** Where each route table is served: src/app.ts mounts them and the OpenAPI document describes them. */
export const ROUTE_MOUNTS: readonly RouteMount[] = [
  { mount: '/v1', routes: VERSIONED_ROUTES },
  { mount: '/api', routes: FEATURE_ROUTES },
];

/**
 * The steps of a tenant sync (src/sync): every feature's `syncStep`, in this list's order except that a step
 * comes after those it names in `after`.
 */
export const SYNC_STEPS: readonly SyncStep[] = syncStepsOf(FEATURE_MODULES);

/** What acts on every recorded event inside its transaction (AppDeps.outboxSubscribers, core/events/event-fanout.ts). */
export const OUTBOX_SUBSCRIBERS = FEATURE_MODULES.flatMap((feature) => feature.outboxSubscribers ?? []);
