import { mapSchema, MapperKind } from '@graphql-tools/utils';
import { GraphQLEnumType, GraphQLError, type GraphQLSchema } from 'graphql';

/**
 * REST keeps SPEC.md's spelling of enumerations ("In Progress", "Enabled", "healthy") while GraphQL
 * uses UPPER_SNAKE names (DECISIONS). The resolvers already work with the SPEC spelling (the enums'
 * internal values), so the REST copy of the schema only changes how enums cross the boundary:
 * it writes the internal value and reads either spelling.
 */
class RestEnumType extends GraphQLEnumType {
  private readonly internalValues = new Set<unknown>(this.getValues().map((value) => value.value));

  override serialize(outputValue: unknown): string | null | undefined {
    super.serialize(outputValue); // still refuses values the enum does not have
    return outputValue as string;
  }

  override parseValue(inputValue: unknown): unknown {
    if (this.internalValues.has(inputValue)) return inputValue;
    try {
      return super.parseValue(inputValue);
    } catch {
      throw new GraphQLError(`must be one of: ${[...this.internalValues].map((value) => `"${String(value)}"`).join(', ')}`);
    }
  }
}

export function restSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.ENUM_TYPE]: (type) => new RestEnumType(type.toConfig()),
  });
}
