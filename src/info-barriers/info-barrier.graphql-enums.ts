/**
 * The GraphQL names and descriptions of the enums of info-barrier.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  BARRIER_APPLICATION_HOURS,
  BarrierApplicationStatus,
  BarrierPolicyType,
  SegmentAttribute,
} from './info-barrier.enums.js';

registerEnumType(SegmentAttribute, {
  name: 'SegmentAttribute',
  description:
    'department, jobTitle, memberOf (a group name or id), office, company, extensionAttribute1..15',
});

registerEnumType(BarrierPolicyType, { name: 'BarrierPolicyType', description: 'Block or Allow' });

registerEnumType(BarrierApplicationStatus, {
  name: 'BarrierApplicationStatus',
  description: `Pending, Applying, Applied (${BARRIER_APPLICATION_HOURS} h after it started), Failed`,
});
