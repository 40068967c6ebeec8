import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { DeviceDashboardService } from './device-dashboard.service.js';
import {
  ComplianceBreakdown,
  DeviceDashboardArgs,
  DeviceDashboardSummary,
  EnrollmentTrend,
  EnrollmentTrendArgs,
  PlatformDistribution,
} from './device-dashboard.types.js';

/** Device dashboards of SPEC 4.2 (REST: /api/device-management-vendor/dashboard...). */
@Resolver()
export class DeviceDashboardResolver {
  @Query(() => DeviceDashboardSummary, {
    description: 'Devices: total, compliant, non-compliant, in grace period, not evaluated',
  })
  @RequirePermission(FEATURES.devices.read)
  deviceDashboard(@Args() args: DeviceDashboardArgs, @Ctx() ctx: RequestContext) {
    return new DeviceDashboardService(ctx).summary(args);
  }

  @Query(() => ComplianceBreakdown, { description: 'Devices by compliance state and by platform' })
  @RequirePermission(FEATURES.devices.read)
  deviceComplianceBreakdown(@Args() args: DeviceDashboardArgs, @Ctx() ctx: RequestContext) {
    return new DeviceDashboardService(ctx).compliance(args);
  }

  @Query(() => EnrollmentTrend, { description: 'Enrollments per day or week over a date range' })
  @RequirePermission(FEATURES.devices.read)
  deviceEnrollmentTrend(@Args() args: EnrollmentTrendArgs, @Ctx() ctx: RequestContext) {
    return new DeviceDashboardService(ctx).enrollment(args);
  }

  @Query(() => PlatformDistribution, {
    description: 'Devices over Windows, macOS, iOS/iPadOS, Android, Linux',
  })
  @RequirePermission(FEATURES.devices.read)
  devicePlatformDistribution(@Args() args: DeviceDashboardArgs, @Ctx() ctx: RequestContext) {
    return new DeviceDashboardService(ctx).platforms(args);
  }
}
