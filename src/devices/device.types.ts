import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo, PageOf } from '../core/pagination.js';
import { DeviceAction } from './device-action.entity.js';
import { Device } from './device.entity.js';
import {
  DeviceHealthState,
  DeviceRiskLevel,
  IsolationState,
  IsolationType,
  OnboardingStatus,
  OsPlatform,
  ScanType,
} from './device.enums.js';
import './device.graphql-enums.js';

export const DevicePage = PageOf(Device, 'Device');

@InputType({ description: 'Device filters; each list matches any of its values, filters combine with AND' })
export class DeviceFilter {
  @Field(() => [DeviceRiskLevel], { nullable: true })
  riskLevel?: DeviceRiskLevel[] | null;

  @Field(() => Int, { nullable: true, description: 'Exposure score at least (0..100)' })
  exposureMin?: number | null;

  @Field(() => Int, { nullable: true, description: 'Exposure score at most (0..100)' })
  exposureMax?: number | null;

  @Field(() => [OsPlatform], { nullable: true })
  osPlatform?: OsPlatform[] | null;

  @Field(() => [DeviceHealthState], { nullable: true })
  healthState?: DeviceHealthState[] | null;

  @Field(() => [OnboardingStatus], { nullable: true })
  onboardingStatus?: OnboardingStatus[] | null;

  @Field(() => String, { nullable: true, description: 'Part of the device name' })
  search?: string | null;
}

@InputType({ description: 'SPEC 3.2: reason and notes are required to isolate' })
export class IsolateDeviceInput {
  @Field(() => IsolationType)
  type!: IsolationType;

  @Field()
  reason!: string;

  @Field()
  notes!: string;
}

@InputType()
export class ReleaseDeviceInput {
  @Field()
  reason!: string;

  @Field(() => String, { nullable: true })
  notes?: string | null;
}

@InputType()
export class ScanDeviceInput {
  @Field(() => ScanType)
  type!: ScanType;
}

export enum TimelineEntryKind {
  ISOLATION = 'Isolation',
  RELEASE = 'Release',
  SCAN = 'Scan',
  ALERT = 'Alert',
}
registerEnumType(TimelineEntryKind, {
  name: 'TimelineEntryKind',
  description: 'Isolation, Release, Scan or Alert',
});

/** One event of a device's history (SPEC 4.4 "Device scan: results appear in the device timeline"). */
@ObjectType({ description: "One entry of a device's timeline, newest first" })
export class DeviceTimelineEntry {
  @Field(() => GraphQLDateTime)
  at!: Date;

  @Field(() => TimelineEntryKind)
  kind!: TimelineEntryKind;

  @Field({ description: 'What happened, in a sentence' })
  summary!: string;

  @Field(() => String, { nullable: true, description: 'Action or alert status' })
  status!: string | null;

  @Field(() => ID, { nullable: true })
  actionId!: string | null;

  @Field(() => ID, { nullable: true })
  alertId!: string | null;

  @Field(() => Int, { nullable: true })
  threatsFound!: number | null;

  @Field(() => Int, { nullable: true })
  durationSeconds!: number | null;
}

@ObjectType({ description: 'A device security recommendation and how many devices it concerns' })
export class DeviceRecommendation {
  @Field()
  id!: string;

  @Field()
  title!: string;

  @Field({ description: 'High or Medium' })
  impact!: string;

  @Field(() => Int)
  affectedDeviceCount!: number;
}

@ObjectType('DeviceRecommendationPage')
export class DeviceRecommendationPage {
  @Field(() => [DeviceRecommendation])
  items!: DeviceRecommendation[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

@ObjectType({ description: "A device's isolation: where it stands and its last isolation or release" })
export class IsolationStatus {
  @Field(() => ID)
  deviceId!: string;

  @Field(() => IsolationState)
  state!: IsolationState;

  @Field(() => IsolationType, { nullable: true })
  isolationType!: IsolationType | null;

  @Field({ description: 'An isolation or release is Pending or InProgress' })
  actionInProgress!: boolean;

  @Field(() => DeviceAction, { nullable: true })
  lastAction!: DeviceAction | null;
}
