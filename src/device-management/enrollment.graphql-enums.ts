/**
 * The GraphQL names and descriptions of the enums of enrollment.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { EnrollmentPlatform, RestrictionType, BlockReason } from './enrollment.enums.js';

registerEnumType(EnrollmentPlatform, {
  name: 'EnrollmentPlatform',
  description: 'Windows MDM, macOS, iOS/iPadOS, Android Enterprise or Android Device Admin',
});

registerEnumType(RestrictionType, {
  name: 'RestrictionType',
  description:
    'Device Type Restrictions (platforms, ownership, OS versions, manufacturers) or Device Limit Restrictions',
});

registerEnumType(BlockReason, {
  name: 'BlockReason',
  description:
    'Platform Blocked (platform, corporate ownership or manufacturer), OS Version, Device Limit, Personal Device',
});
