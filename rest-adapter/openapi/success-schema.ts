import {
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  Kind,
  getNamedType,
  getNullableType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import type { RouteDefinition } from '../route.js';
import { PAGE_META_PROPERTIES, PAGE_META_REQUIRED } from './components.js';
import type { JsonSchema, JsonSchemaBuilder } from './json-schema.js';

/** SPEC 2.1 success envelope around the root field's answer; a page becomes `data: items` with `meta`. */
export function successSchema(
  route: RouteDefinition,
  kind: OperationTypeNode,
  root: FieldNode,
  schema: GraphQLSchema,
  schemas: JsonSchemaBuilder,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  const rootType = schema.getRootType(kind);
  const field = rootType?.getFields()[root.name.value];
  if (!field) throw new Error(`OpenAPI: ${route.method} ${route.path}: no root field ${root.name.value}`);
  const envelope = (data: JsonSchema, meta?: JsonSchema): JsonSchema => ({
    type: 'object',
    required: meta ? ['success', 'data', 'meta'] : ['success', 'data'],
    additionalProperties: false,
    properties: { success: { const: true }, data, ...(meta ? { meta } : {}) },
  });
  const named = getNamedType(field.type);
  const selected = new Map(
    (root.selectionSet?.selections ?? []).flatMap((s) =>
      s.kind === Kind.FIELD ? [[s.name.value, s] as const] : [],
    ),
  );
  const items = selected.get('items');
  if (
    named instanceof GraphQLObjectType &&
    items &&
    selected.has('pageInfo') &&
    !(getNullableType(field.type) instanceof GraphQLList)
  ) {
    const itemsField = named.getFields().items;
    const pageInfoField = named.getFields().pageInfo;
    // SPEC 2.1's numbered pages share PageMeta; another page shape (the cross-tenant search's keyset cursor)
    // is described by what its document selects, which is what rest-adapter/envelope.ts puts in meta.
    const pageMeta: JsonSchema =
      getNamedType(pageInfoField.type).name === 'PageInfo'
        ? { $ref: '#/components/schemas/PageMeta' }
        : schemas.output(
            new GraphQLNonNull(getNullableType(pageInfoField.type)),
            selected.get('pageInfo')!.selectionSet,
            fragments,
          );
    const meta = withPageMetaFields(route, named, pageMeta, selected, schemas, fragments);
    const page = envelope(schemas.output(itemsField.type, items.selectionSet, fragments), meta);
    // A nullable page answered null is `data: null` without meta (rest-adapter/envelope.ts).
    return field.type instanceof GraphQLNonNull ? page : { oneOf: [page, envelope({ type: 'null' })] };
  }
  const data = schemas.output(field.type, root.selectionSet, fragments);
  const metaFields = route.metaFields ?? [];
  if (metaFields.length === 0) return envelope(data);
  // The route's metaFields (the portal's dataAsOf) move from data to meta (rest-adapter/envelope.ts).
  const object = data as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (!object.properties)
    throw new Error(`OpenAPI: ${route.method} ${route.path}: metaFields need a non-null object answer`);
  const metaProperties: Record<string, JsonSchema> = {};
  const dataProperties = { ...object.properties };
  for (const name of metaFields) {
    metaProperties[name] = dataProperties[name];
    delete dataProperties[name];
  }
  return envelope(
    {
      ...object,
      properties: dataProperties,
      required: (object.required ?? []).filter((name) => !metaFields.includes(name)),
    },
    { type: 'object', required: metaFields, additionalProperties: false, properties: metaProperties },
  );
}

/**
 * A page route's metaFields (a connector history's `statistics`) go into `meta` beside page, limit and
 * total (rest-adapter/envelope.ts): PageMeta's properties plus theirs, as one closed object.
 */
function withPageMetaFields(
  route: RouteDefinition,
  page: GraphQLObjectType,
  pageMeta: JsonSchema,
  selected: ReadonlyMap<string, FieldNode>,
  schemas: JsonSchemaBuilder,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): JsonSchema {
  const metaFields = route.metaFields ?? [];
  if (metaFields.length === 0) return pageMeta;
  if (!('$ref' in pageMeta))
    throw new Error(`OpenAPI: ${route.method} ${route.path}: metaFields need a numbered page (PageInfo)`);
  const properties: Record<string, JsonSchema> = { ...PAGE_META_PROPERTIES };
  for (const name of metaFields) {
    const field = page.getFields()[name];
    const node = selected.get(name);
    if (!field || !node)
      throw new Error(`OpenAPI: ${route.method} ${route.path}: metaField ${name} is not selected`);
    properties[name] = schemas.output(field.type, node.selectionSet, fragments);
  }
  return {
    type: 'object',
    required: [...PAGE_META_REQUIRED, ...metaFields],
    additionalProperties: false,
    properties,
  };
}
