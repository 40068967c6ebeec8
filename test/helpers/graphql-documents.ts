import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  print,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * GraphQL documents for differential tests of the executor (test/http/graphql-lean-run.test.ts): one query per
 * root field of the schema selecting its fields a few levels deep, with values for its required arguments, and
 * variants of a document (aliases, `__typename`, fragments, directives, several root fields).
 */

/** A value of `type` for a required argument: `uuid` answers the UUIDs (by the argument's name). */
export function sampleInput(type: GraphQLInputType, name: string, uuid: (name: string) => string): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [sampleInput(nullable.ofType, name, uuid)];
  if (isEnumType(nullable)) return nullable.getValues()[0]?.name;
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields()))
      if (isNonNullType(field.type) && field.defaultValue === undefined)
        value[field.name] = sampleInput(field.type, field.name, uuid);
    return value;
  }
  switch (nullable.name) {
    case 'UUID':
      return uuid(name);
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return '2026-01-01T00:00:00.000Z';
    default:
      return 'x';
  }
}

const requiredArguments = (field: GraphQLField<unknown, unknown>) =>
  field.args.filter((argument) => isNonNullType(argument.type) && argument.defaultValue === undefined);

/** The selection of `type`'s fields without required arguments, objects down to `depth` levels. */
function selectionOf(type: GraphQLObjectType, depth: number): string {
  const fields: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (requiredArguments(field).length > 0) continue;
    const named = getNamedType(field.type);
    if (isObjectType(named)) {
      if (depth > 1) fields.push(`${field.name} { ${selectionOf(named, depth - 1)} }`);
    } else if (isAbstractType(named)) fields.push(`${field.name} { __typename }`);
    else fields.push(field.name);
  }
  return fields.length > 0 ? fields.join(' ') : '__typename';
}

/** A query per root field of the schema, with variables for its required arguments. */
export function everyRootQuery(
  schema: GraphQLSchema,
  uuid: (name: string) => string,
  depth = 3,
): Array<{ query: string; variables: Record<string, unknown> }> {
  const documents: Array<{ query: string; variables: Record<string, unknown> }> = [];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const required = requiredArguments(field);
    const variables: Record<string, unknown> = {};
    for (const argument of required)
      variables[argument.name] = sampleInput(argument.type, argument.name, uuid);
    const definitions = required.map((argument) => `$${argument.name}: ${String(argument.type)}`).join(', ');
    const args = required.map((argument) => `${argument.name}: $${argument.name}`).join(', ');
    const named = getNamedType(field.type);
    const selection = isObjectType(named)
      ? ` { ${selectionOf(named, depth)} }`
      : isAbstractType(named)
        ? ' { __typename }'
        : '';
    const name = `Every${field.name[0]!.toUpperCase()}${field.name.slice(1)}`;
    documents.push({
      query: `query ${name}${definitions ? `(${definitions})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`,
      variables,
    });
  }
  return documents;
}

const operationOf = (document: DocumentNode) =>
  document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;

/** `document` with each selection set changed by `change` (the root's included, `atRoot` then true). */
function eachSelectionSet(
  query: string,
  change: (set: SelectionSetNode, atRoot: boolean) => SelectionSetNode,
): string {
  return print(
    visit(parse(query), {
      SelectionSet: {
        leave: (set, _key, parent) =>
          change(set, !Array.isArray(parent) && (parent as ASTNode).kind === Kind.OPERATION_DEFINITION),
      },
    }) as ASTNode,
  );
}

/**
 * Variants of a one-operation query: its root field aliased; `__typename` and an aliased copy of the first field in
 * every selection set; the root's selection in a named fragment; the first field of each set under `@include` and
 * `@skip` of a variable; a second root field (`__typename`).
 */
export function variantsOf(schema: GraphQLSchema, query: string): Record<string, string> {
  const document = parse(query);
  const operation = operationOf(document);
  const firstField = (set: SelectionSetNode) => set.selections.find((node) => node.kind === Kind.FIELD);
  const typename = eachSelectionSet(query, (set, atRoot) => {
    const first = firstField(set);
    // Not at the root: two root fields that fail may list their errors in either order (graphql-jit runs them at once).
    const copy =
      first?.kind === Kind.FIELD && !atRoot
        ? [{ ...first, alias: { kind: Kind.NAME, value: `copyOf${first.name.value}` } as const }]
        : [];
    return {
      ...set,
      selections: [
        { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } },
        ...set.selections,
        ...copy,
      ],
    };
  });
  const printed = print(document);
  const root = operation.selectionSet.selections[0];
  const rootText = root ? print(root) : '';
  const withDirective = (directive: string) =>
    eachSelectionSet(query, (set, atRoot) => {
      const first = firstField(set);
      if (!first || atRoot) return set;
      const marked = operationOf(parse(`{ a @${directive}(if: $flag) }`)).selectionSet.selections[0]!;
      const field = { ...first, directives: [...(first.directives ?? []), ...(marked.directives ?? [])] };
      return { ...set, selections: set.selections.map((s) => (s === first ? field : s)) };
    }).replace(/query (\w+)(\(([^)]*)\))?/, (_all, name: string, _p, vars?: string) =>
      vars ? `query ${name}(${vars}, $flag: Boolean = true)` : `query ${name}($flag: Boolean = true)`,
    );
  const fragmentOf = () => {
    if (root?.kind !== Kind.FIELD || !root.selectionSet) return printed;
    const field = schema.getQueryType()?.getFields()[root.name.value];
    const type = field && getNamedType(field.type);
    if (!isObjectType(type)) return printed;
    const inner = root.selectionSet.selections.map((node) => print(node)).join(' ');
    return `${printed.replace(print(root.selectionSet), '{ ...Root }')}\nfragment Root on ${type.name} { ${inner} }`;
  };
  return {
    aliased: printed.replace(rootText, `aliasedRoot: ${rootText}`),
    typename,
    fragment: fragmentOf(),
    include: withDirective('include'),
    skip: withDirective('skip'),
    twice: printed.replace(rootText, `first: ${rootText} second: __typename`),
  };
}
