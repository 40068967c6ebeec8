import { GraphQLUUID } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';
import { DeviceOwnership, OsPlatform } from '../devices/device.enums.js';
import {
  EnrollmentPlatform,
  MAX_DEVICE_LIMIT,
  MIN_DEVICE_LIMIT,
  RestrictionType,
} from './enrollment.enums.js';
import {
  DeviceLimitGroupOverride,
  PlatformDeviceLimit,
  PlatformRestriction,
} from './enrollment-policy.settings.js';

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
