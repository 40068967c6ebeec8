import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../core/pagination.js';
import { DeviceOwnership, OsPlatform } from '../devices/device.enums.js';
import { BlockedEnrollmentAttempt } from './blocked-enrollment.entity.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import {
  DeviceLimitGroupOverride,
  PlatformDeviceLimit,
  PlatformRestriction,
} from './enrollment-policy.settings.js';
import {
  BlockReason,
  EnrollmentPlatform,
  MAX_DEVICE_LIMIT,
  MIN_DEVICE_LIMIT,
  RestrictionType,
} from './enrollment.enums.js';
import './enrollment.graphql-enums.js';
import '../devices/device.graphql-enums.js';

/** The rules on these fields are checked in one place, enrollment-policy.validation.ts. */
@InputType({ description: 'A new enrollment restriction policy; it is placed just above the default' })
export class CreateEnrollmentRestrictionInput {
  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => RestrictionType)
  restrictionType!: RestrictionType;

  // Nullable rather than defaulted: graphql-jit (REST) does not apply input field defaults.
  @Field(() => Boolean, {
    nullable: true,
    description: 'Assign to every user (else give groupIds); default false',
  })
  assignedToAllUsers?: boolean | null;

  @Field(() => [GraphQLUUID], { nullable: true, description: 'Groups of the tenant to assign the policy to' })
  groupIds?: string[] | null;

  @Field(() => [PlatformRestriction], {
    nullable: true,
    description: 'Device Type Restrictions: platforms not listed are allowed',
  })
  platformRestrictions?: PlatformRestriction[] | null;

  @Field(() => Int, {
    nullable: true,
    description: `Device Limit Restrictions: ${MIN_DEVICE_LIMIT} to ${MAX_DEVICE_LIMIT} devices per user`,
  })
  deviceLimit?: number | null;

  @Field(() => [PlatformDeviceLimit], { nullable: true })
  platformLimits?: PlatformDeviceLimit[] | null;

  @Field(() => [DeviceLimitGroupOverride], { nullable: true })
  groupOverrides?: DeviceLimitGroupOverride[] | null;
}

/** The fields to change (the others keep their value); the restriction type never changes. */
@InputType({ description: 'Changes to an enrollment restriction policy (fields not given keep their value)' })
export class UpdateEnrollmentRestrictionInput {
  @Field({ nullable: true })
  name?: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field({ nullable: true })
  assignedToAllUsers?: boolean;

  @Field(() => [GraphQLUUID], { nullable: true })
  groupIds?: string[];

  @Field(() => [PlatformRestriction], { nullable: true })
  platformRestrictions?: PlatformRestriction[];

  @Field(() => Int, { nullable: true })
  deviceLimit?: number | null;

  @Field(() => [PlatformDeviceLimit], { nullable: true })
  platformLimits?: PlatformDeviceLimit[];

  @Field(() => [DeviceLimitGroupOverride], { nullable: true })
  groupOverrides?: DeviceLimitGroupOverride[];
}

@InputType('DeviceCountInput')
export class DeviceCountInput {
  @Field(() => OsPlatform)
  platform!: OsPlatform;

  @Field(() => Int)
  count!: number;
}

@InputType({ description: 'An enrollment attempt to decide without recording anything' })
export class EvaluateEnrollmentInput {
  @Field(() => GraphQLUUID, { description: 'The enrolling user (a user of the tenant)' })
  userId!: string;

  @Field(() => EnrollmentPlatform)
  platform!: EnrollmentPlatform;

  @Field()
  osVersion!: string;

  @Field(() => DeviceOwnership)
  ownership!: DeviceOwnership;

  @Field(() => String, { nullable: true })
  manufacturer?: string | null;

  @Field(() => [DeviceCountInput], {
    nullable: true,
    description: "The user's current devices per platform; absent: counted from the tenant's devices",
  })
  deviceCounts?: DeviceCountInput[] | null;
}

export const EnrollmentRestrictionPage = PageOf(EnrollmentRestriction, 'EnrollmentRestriction');

export const BlockedEnrollmentAttemptPage = PageOf(BlockedEnrollmentAttempt, 'BlockedEnrollmentAttempt');

@ArgsType()
export class BlockedAttemptArgs extends PageArgs {
  @Field(() => BlockReason, { nullable: true })
  reason?: BlockReason | null;

  @Field(() => EnrollmentPlatform, { nullable: true })
  platform?: EnrollmentPlatform | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Attempts at or after this time' })
  from?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Attempts at or before this time' })
  to?: Date | null;
}

@ObjectType()
export class DecidingPolicy {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType({ description: 'What the restrictions decide for an enrollment attempt (nothing is recorded)' })
export class EnrollmentDecisionResult {
  @Field() allowed!: boolean;
  @Field(() => BlockReason, { nullable: true }) reason!: BlockReason | null;
  @Field() detail!: string;
  @Field(() => DecidingPolicy, {
    nullable: true,
    description: 'The policy that blocked, or the limit policy that allowed',
  })
  decidedBy!: DecidingPolicy | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The device type restriction that applied (none: all allowed)',
  })
  deviceTypePolicyId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The device limit restriction that applied' })
  deviceLimitPolicyId!: string | null;
}
