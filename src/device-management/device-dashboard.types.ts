import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ComplianceState, DeviceOwnership, OsPlatform } from '../devices/device.enums.js';
import '../devices/device.graphql-enums.js';

/** SPEC 2.6 "Dashboard metrics (device)" filters; no tenant: every tenant of the organization. */
@ArgsType()
export class DeviceDashboardArgs {
  @Field(() => GraphQLUUID, {
    nullable: true,
    description: 'One tenant (REST: X-Tenant-Id); absent: every tenant of the organization',
  })
  tenantId?: string | null;

  @Field(() => GraphQLUUID, {
    nullable: true,
    description:
      'Only the tenants of this tenant group (docs/portal.md); with tenantId, that tenant if a member',
  })
  tenantGroupId?: string | null;

  @Field(() => OsPlatform, { nullable: true })
  platform?: OsPlatform | null;

  @Field(() => DeviceOwnership, { nullable: true })
  ownership?: DeviceOwnership | null;

  @Field(() => ComplianceState, { nullable: true })
  complianceState?: ComplianceState | null;
}

export enum TrendInterval {
  DAY = 'day',
  WEEK = 'week',
}
registerEnumType(TrendInterval, {
  name: 'TrendInterval',
  description: 'day or week (weeks start on Monday, UTC)',
});

/** The enrollment trend's range when `from` is not given: this many days before `to`. */
export const DEFAULT_TREND_DAYS = 30;

@ArgsType()
export class EnrollmentTrendArgs extends DeviceDashboardArgs {
  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: `Start of the range; default: ${DEFAULT_TREND_DAYS} days before \`to\``,
  })
  from?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'End of the range; default: now' })
  to?: Date | null;

  @Field(() => TrendInterval, { nullable: true, description: 'day (default) or week' })
  interval?: TrendInterval | null;
}

@ObjectType({ description: 'Device dashboard summary (SPEC 2.6 "Dashboard metrics (device)")' })
export class DeviceDashboardSummary {
  @Field(() => Int) total!: number;
  @Field(() => Int) compliant!: number;
  @Field(() => Int) nonCompliant!: number;
  @Field(() => Int) inGracePeriod!: number;
  @Field(() => Int) notEvaluated!: number;
}

@ObjectType()
export class ComplianceStateCount {
  @Field(() => ComplianceState) state!: ComplianceState;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class PlatformCompliance extends DeviceDashboardSummary {
  @Field(() => OsPlatform) platform!: OsPlatform;
  @Field({ description: 'The dashboard label (iOS/iPadOS for iOS)' }) label!: string;
}

@ObjectType({ description: 'Devices by compliance state, and each platform by compliance state' })
export class ComplianceBreakdown {
  @Field(() => [ComplianceStateCount]) byState!: ComplianceStateCount[];
  @Field(() => [PlatformCompliance]) byPlatform!: PlatformCompliance[];
}

@ObjectType()
export class EnrollmentTrendPoint {
  @Field(() => GraphQLDateTime, { description: 'Start of the day or week (UTC)' }) periodStart!: Date;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'Devices enrolled per day or week over a range (from their enrollment dates)' })
export class EnrollmentTrend {
  @Field(() => TrendInterval) interval!: TrendInterval;
  @Field(() => GraphQLDateTime) from!: Date;
  @Field(() => GraphQLDateTime) to!: Date;
  @Field(() => Int) total!: number;
  @Field(() => [EnrollmentTrendPoint]) points!: EnrollmentTrendPoint[];
}

@ObjectType()
export class PlatformShare {
  @Field(() => OsPlatform) platform!: OsPlatform;
  @Field() label!: string;
  @Field(() => Int) count!: number;
  @Field(() => Float, { description: 'Share of all devices matched, in percent (one decimal)' })
  percentage!: number;
}

@ObjectType({ description: 'Devices over Windows, macOS, iOS/iPadOS, Android and Linux' })
export class PlatformDistribution {
  @Field(() => Int) total!: number;
  @Field(() => [PlatformShare]) platforms!: PlatformShare[];
}
