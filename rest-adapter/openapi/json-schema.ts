import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  Kind,
  getNamedType,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** How each scalar of the schema travels in JSON. An unknown scalar stops generation rather than lying. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  UUID: { type: 'string', format: 'uuid' },
  DateTime: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object' },
};

const componentRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Allows JSON null beside what `schema` allows (a nullable GraphQL type). */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && schema.$ref === undefined) {
    const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) nullable.enum = [...(schema.enum as unknown[]), null];
    return nullable;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  if (!description) return schema;
  // A $ref with siblings is fine in 2020-12, but tools render a wrapped description more reliably.
  return schema.$ref !== undefined ? { allOf: [schema], description } : { ...schema, description };
}

/**
 * Turns the GraphQL types of the REST copy of the schema (rest-adapter/rest-schema.ts) into JSON Schemas:
 * input types and enums become named components (REST spells enum values as SPEC does: the internal values),
 * output types are described by the selection set a route's document asks for, so the document says exactly
 * which fields each response carries.
 */
export class JsonSchemaBuilder {
  /** components.schemas, filled as types are met. */
  readonly components: Record<string, JsonSchema> = {};

  scalar(type: GraphQLScalarType): JsonSchema {
    const schema = SCALARS[type.name];
    if (!schema) throw new Error(`OpenAPI: no JSON Schema for the scalar ${type.name} (add it to SCALARS)`);
    return { ...schema };
  }

  enumRef(type: GraphQLEnumType): JsonSchema {
    if (!this.components[type.name]) {
      const values = type
        .getValues()
        .map((value) => (typeof value.value === 'string' ? value.value : value.name));
      this.components[type.name] = withDescription({ type: 'string', enum: values }, type.description);
    }
    return componentRef(type.name);
  }

  /** The schema of a value of an input type; nullable types also accept null (GraphQL does). */
  input(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.nonNullInput(type.ofType);
    return orNull(this.nonNullInput(type));
  }

  private nonNullInput(type: GraphQLInputType): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.nonNullInput(type.ofType);
    if (type instanceof GraphQLList) return { type: 'array', items: this.input(type.ofType) };
    if (type instanceof GraphQLEnumType) return this.enumRef(type);
    if (type instanceof GraphQLScalarType) return this.scalar(type);
    return this.inputObjectRef(type);
  }

  private inputObjectRef(type: GraphQLInputObjectType): JsonSchema {
    if (!this.components[type.name]) {
      // Placeholder first: input types may refer to themselves.
      this.components[type.name] = {};
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const field of Object.values(type.getFields())) {
        let schema = withDescription(this.input(field.type), field.description);
        if (field.defaultValue !== undefined) schema = { ...schema, default: field.defaultValue };
        properties[field.name] = schema;
        if (field.type instanceof GraphQLNonNull && field.defaultValue === undefined)
          required.push(field.name);
      }
      // GraphQL refuses unknown fields of an input object, and so does the REST adapter (400).
      const object: JsonSchema = { type: 'object', properties, additionalProperties: false };
      if (required.length > 0) object.required = required;
      this.components[type.name] = withDescription(object, type.description);
    }
    return componentRef(type.name);
  }

  /** The schema of what a field of `type` answers given the selection set a document asks for. */
  output(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.nonNullOutput(type.ofType, selectionSet, fragments);
    return orNull(this.nonNullOutput(type, selectionSet, fragments));
  }

  private nonNullOutput(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ): JsonSchema {
    if (type instanceof GraphQLNonNull) return this.nonNullOutput(type.ofType, selectionSet, fragments);
    if (type instanceof GraphQLList)
      return { type: 'array', items: this.output(type.ofType, selectionSet, fragments) };
    if (type instanceof GraphQLEnumType) return this.enumRef(type);
    if (type instanceof GraphQLScalarType) return this.scalar(type);
    if (type instanceof GraphQLObjectType && selectionSet)
      return this.selection(type, selectionSet, fragments);
    throw new Error(
      `OpenAPI: ${getNamedType(type).name} needs a selection set (abstract types are not used by REST)`,
    );
  }

  /** An object with exactly the selected fields (GraphQL answers every selected key, null or not). */
  selection(
    type: GraphQLObjectType,
    selectionSet: SelectionSetNode,
    fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required = new Set<string>();
    const visit = (set: SelectionSetNode, conditional: boolean) => {
      for (const selection of set.selections) {
        const skippable = conditional || (selection.directives ?? []).length > 0;
        if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, skippable);
        else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (fragment) visit(fragment.selectionSet, skippable);
        } else {
          const key = selection.alias?.value ?? selection.name.value;
          if (selection.name.value === '__typename') properties[key] = { type: 'string', const: type.name };
          else {
            const field = type.getFields()[selection.name.value];
            if (!field) throw new Error(`OpenAPI: ${type.name} has no field ${selection.name.value}`);
            properties[key] = withDescription(
              this.output(field.type, selection.selectionSet, fragments),
              field.description,
            );
          }
          if (!skippable) required.add(key);
        }
      }
    };
    visit(selectionSet, false);
    return { type: 'object', properties, required: [...required], additionalProperties: false };
  }
}
