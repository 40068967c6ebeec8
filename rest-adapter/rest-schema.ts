import { mapSchema } from '@graphql-tools/utils';
import { GraphQLEnumType, GraphQLError, type GraphQLSchema } from 'graphql';

/**
 * REST keeps SPEC.md's spelling of enumerations ("In Progress", "Enabled", "healthy") while GraphQL
 * uses UPPER_SNAKE names (DECISIONS). The resolvers already work with the SPEC spelling (the enums'
 * internal values), so the REST copy of the schema only changes how enums cross the boundary:
 * it writes and reads the internal value only, so `/settings/integrations/SLACK` is as unknown as any
 * other misspelling (404) and a body's `"level": "ADMIN"` is refused like `"Adminn"`.
 */
function useSpecSpelling(type: GraphQLEnumType): void {
  const internalValues = new Set<unknown>(type.getValues().map((value) => value.value));
  const serialize = type.serialize.bind(type);
  const byInternalValue = new Map(type.getValues().map((value) => [value.value as unknown, value]));
  // graphql-jit coerces variables through getValue(name): let it find a value by its SPEC spelling only.
  type.getValue = (name: string) => byInternalValue.get(name);
  type.serialize = (outputValue: unknown) => {
    serialize(outputValue); // still refuses values the enum does not have
    return outputValue as string;
  };
  type.parseValue = (inputValue: unknown) => {
    if (internalValues.has(inputValue)) return inputValue;
    throw new GraphQLError(
      `must be one of: ${[...internalValues].map((value) => `"${String(value)}"`).join(', ')}`,
    );
  };
}

const restCopies = new WeakMap<GraphQLSchema, GraphQLSchema>();

/**
 * A copy of the schema (mapSchema rebuilds every type) whose enums use the SPEC spelling; one per schema, shared
 * by the /v1 and the feature routers (building it is ~0.1 s of a restart).
 */
export function restSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  let copy = restCopies.get(schema);
  if (!copy) {
    copy = specSpellingCopy(schema);
    restCopies.set(schema, copy);
  }
  return copy;
}

function specSpellingCopy(schema: GraphQLSchema): GraphQLSchema {
  const copy = mapSchema(schema, {});
  for (const type of Object.values(copy.getTypeMap())) {
    if (type instanceof GraphQLEnumType && !type.name.startsWith('__')) {
      if (type === schema.getType(type.name)) throw new Error(`mapSchema did not copy enum ${type.name}`);
      useSpecSpelling(type);
    }
  }
  return copy;
}
