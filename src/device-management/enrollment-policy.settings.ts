import { GraphQLUUID } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { OsPlatform } from '../devices/device.enums.js';
import { EnrollmentPlatform, MAX_DEVICE_LIMIT, MIN_DEVICE_LIMIT } from './enrollment.enums.js';
import './enrollment.graphql-enums.js';
import '../devices/device.graphql-enums.js';

/**
 * The settings a policy carries (stored as jsonb on the policy row): one class serves as the GraphQL output
 * type and as the input type, so the two cannot drift.
 */
@ObjectType('PlatformRestriction', { description: 'What a device type restriction says about one platform' })
@InputType('PlatformRestrictionInput')
export class PlatformRestriction {
  @Field(() => EnrollmentPlatform)
  platform!: EnrollmentPlatform;

  @Field({ description: 'Allow (true) or Block (false) the platform' })
  allowed!: boolean;

  // Nullable so an input may leave them out (true); graphql-jit does not apply input field defaults.
  @Field(() => Boolean, { nullable: true, description: 'Corporate-owned devices may enroll (default true)' })
  corporateAllowed?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Personally owned devices may enroll (default true)' })
  personalAllowed?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Lowest OS version allowed (compared as a version)' })
  minOsVersion?: string | null;

  @Field(() => String, { nullable: true, description: 'Highest OS version allowed (compared as a version)' })
  maxOsVersion?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Manufacturers refused (Android Enterprise and Android Device Admin only; SPEC 4.4)',
  })
  blockedManufacturers?: string[] | null;
}

@ObjectType('PlatformDeviceLimit', { description: 'How many devices of one OS a user may enroll' })
@InputType('PlatformDeviceLimitInput')
export class PlatformDeviceLimit {
  @Field(() => OsPlatform)
  platform!: OsPlatform;

  @Field(() => Int, { description: `${MIN_DEVICE_LIMIT} to ${MAX_DEVICE_LIMIT}` })
  limit!: number;
}

@ObjectType('DeviceLimitGroupOverride', {
  description: 'A per-user device limit for the members of one group of the tenant',
})
@InputType('DeviceLimitGroupOverrideInput')
export class DeviceLimitGroupOverride {
  @Field(() => GraphQLUUID)
  groupId!: string;

  @Field(() => Int, { description: `${MIN_DEVICE_LIMIT} to ${MAX_DEVICE_LIMIT}` })
  deviceLimit!: number;
}
