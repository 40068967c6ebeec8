/**
 * The GraphQL names and descriptions of the enums of job-status.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { JobStatus } from './job-status.js';

registerEnumType(JobStatus, {
  name: 'JobStatus',
  description: 'Queued → Running → Completed | Failed | Cancelled',
});
