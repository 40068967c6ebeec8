/**
 * The GraphQL names and descriptions of the enums of permissions.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { PermissionLevel } from './permissions.js';

registerEnumType(PermissionLevel, {
  name: 'PermissionLevel',
  description:
    'Read: view only. Write: create and update. Admin: everything, including deletions and key management.',
});
