/**
 * The GraphQL names and descriptions of the enums of secure-score.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import { SecureScoreSource } from './secure-score.enums.js';

registerEnumType(SecureScoreSource, {
  name: 'SecureScoreSource',
  description:
    "recommendations: computed from our recommendations' points; microsoft365: Microsoft Secure Score's points",
});
