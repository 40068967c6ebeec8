import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type ClassType, type NonEmptyArray } from 'type-graphql';
import { FEATURE_MODULES } from './features.js';
import { validateArgumentsTogether } from './http/input/argument-rules.js';
import { withServiceScalars } from './core/scalars.js';
import { readPlainFieldsDirectly } from './core/perf/type-graphql-plain-fields.js';
import { callFieldResolversDirectly } from './core/perf/type-graphql-direct-field-resolvers.js';

/** Every feature's resolvers, in the order of the feature list (src/features.ts). */
export const RESOLVERS = FEATURE_MODULES.flatMap(
  (feature) => feature.resolvers ?? [],
) as NonEmptyArray<ClassType>;

export async function buildAppSchema(): Promise<GraphQLSchema> {
  // Plain fields without type-graphql's per-field wrapper (issue #11; a trick on its internals, see the file).
  readPlainFieldsDirectly();
  const schema = await buildSchema({
    resolvers: RESOLVERS,
    // class-validator rules on inputs and args: INVALID_REQUEST naming every bad field of the call at once.
    validateFn: validateArgumentsTogether,
    // type-graphql needs a pub/sub once any subscription exists; event subscriptions read their own
    // per-server EventHub instead (src/subscriptions), this one serves topic-based subscriptions.
    pubSub: createPubSub(),
  });
  const withScalars = withServiceScalars(schema);
  // Field resolvers of only the parent and the context called without type-graphql's wrapper (issue #31).
  callFieldResolversDirectly(withScalars);
  return withScalars;
}
