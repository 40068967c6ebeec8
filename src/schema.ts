import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { validate, type ValidationError } from 'class-validator';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type ClassType, type NonEmptyArray } from 'type-graphql';
import { FEATURE_MODULES } from './features.js';
import { InvalidRequestError, type FieldProblem } from './core/errors.js';
import { withServiceScalars } from './core/scalars.js';
import { readPlainFieldsDirectly } from './core/perf/type-graphql-plain-fields.js';

/** Every feature's resolvers, in the order of the feature list (src/features.ts). */
export const RESOLVERS = FEATURE_MODULES.flatMap(
  (feature) => feature.resolvers ?? [],
) as NonEmptyArray<ClassType>;

function fieldProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ field, problem }));
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

/** class-validator rules on inputs and args become INVALID_REQUEST with `details.fields`. */
async function validateArgument(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  const values = Array.isArray(value) ? value : [value];
  for (const item of values) {
    if (item === null || typeof item !== 'object') continue;
    const errors = await validate(item as object, { forbidUnknownValues: false });
    if (errors.length > 0) {
      const fields = fieldProblems(errors);
      throw new InvalidRequestError(
        `Invalid request: ${fields.map((f) => `${f.field} ${f.problem.replace(new RegExp(`^${f.field.split('.').pop()} `), '')}`).join('; ')}`,
        fields,
      );
    }
  }
}

export async function buildAppSchema(): Promise<GraphQLSchema> {
  // Plain fields without type-graphql's per-field wrapper (issue #11; a trick on its internals, see the file).
  readPlainFieldsDirectly();
  const schema = await buildSchema({
    resolvers: RESOLVERS,
    validateFn: validateArgument,
    // type-graphql needs a pub/sub once any subscription exists; event subscriptions read their own
    // per-server EventHub instead (src/subscriptions), this one serves topic-based subscriptions.
    pubSub: createPubSub(),
  });
  return withServiceScalars(schema);
}
