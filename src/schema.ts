import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { validate, type ValidationError } from 'class-validator';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, getMetadataStorage, type ClassType, type NonEmptyArray } from 'type-graphql';
import { FEATURE_MODULES } from './features.js';
import { InvalidRequestError, type FieldProblem } from './core/errors.js';
import { withServiceScalars } from './core/scalars.js';

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

/**
 * Plain fields (a property or getter of the object, no field resolver) are read by the executor itself instead of
 * through type-graphql's per-field wrapper. The wrapper only runs middlewares and auth checks, and this schema has
 * neither (no global middlewares, no authChecker, no @UseMiddleware/@Authorized on fields: permissions are checked
 * per operation, src/http/operation-requirements.ts); it cost an object, a closure and a resolver call per field
 * of every item (600 per page of 25 users, issue #11). A field published under another name than its property
 * (`@Field({ name })`) keeps the wrapper, since the executor would read the published name.
 */
function readPlainFieldsDirectly(): void {
  const storage = getMetadataStorage();
  for (const field of storage.fields) {
    const renamed = field.name !== field.schemaName;
    const guarded = (field.middlewares?.length ?? 0) > 0 || field.roles !== undefined;
    if (field.simple === undefined && (renamed || guarded)) field.simple = false;
  }
  for (const objectType of storage.objectTypes) objectType.simpleResolvers ??= true;
}

export async function buildAppSchema(): Promise<GraphQLSchema> {
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
