/**
 * The GraphQL names and descriptions of the enums of alert.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { AlertSeverity, AlertStatus, AlertSort } from './alert.enums.js';

registerEnumType(AlertSeverity, { name: 'AlertSeverity', description: 'High, Medium, Low or Informational' });

registerEnumType(AlertStatus, {
  name: 'AlertStatus',
  description: 'New (not yet reviewed), In Progress, Resolved, Dismissed (false positive or not actionable)',
});

registerEnumType(AlertSort, {
  name: 'AlertSort',
  description: 'newest first (default), oldest first, or severity (High first, then newest)',
});
