import type { FeatureModule } from '../core/feature-module.js';
import { ALERT_ROUTES } from './alert.rest.js';
import { AlertComment, SecurityAlert } from './alert.entity.js';
import { AlertResolver } from './alert.resolver.js';
import { alertsSyncStep } from './alert-sync.js';

/** Security alerts of a tenant (SPEC 4.2 security): list, statistics, status changes and comments. */
export const alertsModule: FeatureModule = {
  name: 'alerts',
  resolvers: [AlertResolver],
  entities: [SecurityAlert, AlertComment],
  routes: { api: ALERT_ROUTES },
  eventKinds: ['alert.created', 'alert.updated'],
  syncStep: alertsSyncStep,
};
