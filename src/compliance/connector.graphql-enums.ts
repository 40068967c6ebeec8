/**
 * The GraphQL names and descriptions of the enums of connector.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  ConnectorCategory,
  ConnectorStatus,
  ConnectorAction,
  ConnectorHealth,
  ConnectorRunStatus,
  UserMappingStrategy,
  UnmatchedHandling,
} from './connector.enums.js';

registerEnumType(ConnectorCategory, {
  name: 'ConnectorCategory',
  description: 'Communication, Social Media, Financial, HR or Physical',
});

registerEnumType(ConnectorStatus, { name: 'ConnectorStatus', description: 'Active or Paused' });

registerEnumType(ConnectorAction, {
  name: 'ConnectorAction',
  description: 'Pause (Active → Paused) or Resume (Paused → Active, after a test connection)',
});

registerEnumType(ConnectorHealth, {
  name: 'ConnectorHealth',
  description:
    'Healthy (last run fine), Degraded (Active, but the last runs failed), Error (paused by three failed ' +
    'runs or a configuration error), Paused (paused by an administrator)',
});

registerEnumType(ConnectorRunStatus, {
  name: 'ConnectorRunStatus',
  description: 'Queued, Running, Succeeded or Failed',
});

registerEnumType(UserMappingStrategy, {
  name: 'UserMappingStrategy',
  description: 'Email (source address = user principal name) or Mapping table (explicit pairs)',
});

registerEnumType(UnmatchedHandling, {
  name: 'UnmatchedHandling',
  description:
    'Items of identities no mapping matches: Skip (counted as errors) or Import to fallback mailbox',
});
