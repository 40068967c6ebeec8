/**
 * The GraphQL names and descriptions of the enums of restricted-user.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { RestrictionReason, RestrictionStatus } from './restricted-user.enums.js';

registerEnumType(RestrictionReason, {
  name: 'RestrictionReason',
  description: 'Outbound spam, Sending limit exceeded or Suspicious activity',
});

registerEnumType(RestrictionStatus, {
  name: 'RestrictionStatus',
  description: 'Restricted (cannot send mail) or Unblocked',
});
