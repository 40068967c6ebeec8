import type { FeatureModule } from '../core/feature-module.js';
import { ENROLLMENT_POLICY_ROUTES } from './enrollment-policy.rest.js';
import { DEVICE_DASHBOARD_ROUTES } from './device-dashboard.rest.js';
import { BlockedEnrollmentAttempt } from './blocked-enrollment.entity.js';
import { DeviceDashboardCount } from './device-dashboard-count.entity.js';
import { DeviceDashboardResolver } from './device-dashboard.resolver.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import { EnrollmentRestrictionResolver } from './enrollment-policy.resolver.js';
import { enrollmentSyncStep } from './enrollment-sync.js';

/** Enrollment restrictions and the device-management dashboards (SPEC 4.2 devices). */
export const deviceManagementModule: FeatureModule = {
  name: 'device-management',
  resolvers: [EnrollmentRestrictionResolver, DeviceDashboardResolver],
  entities: [EnrollmentRestriction, BlockedEnrollmentAttempt],
  /** Counters across every organization, kept by triggers (docs/devices.md). */
  unscopedEntities: [DeviceDashboardCount],
  routes: { api: [...ENROLLMENT_POLICY_ROUTES, ...DEVICE_DASHBOARD_ROUTES] },
  syncStep: enrollmentSyncStep,
};
