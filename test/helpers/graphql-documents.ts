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
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
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

const nameNode = (value: string) => ({ kind: Kind.NAME, value }) as const;

/**
 * Variants of a one-operation query: its root field aliased; `__typename` and an aliased copy of the first field in
 * every selection set under the root; the root field's selection in a named fragment; the first field of each set
 * under the root under `@include` and the last under `@skip` of a variable that is true (kept, skipped: one
 * variant since the tenth round, which had two, `include` and `skip`); a second root field (`__typename`).
 * Built on the document's tree and printed: a field's printed text depends on its depth, so replacing the root
 * field's own printed text in the document's (as this did until the tenth round) matched only roots of one line,
 * and the aliased, fragment and twice variants of every REST document were the document itself or (fragment) it
 * with an unused fragment, refused by validation. `aliased` and `typename` leave the root one field, so a plan may
 * take them (src/http/graphql-lean-run.ts); no plan takes the other three.
 */
export function variantsOf(schema: GraphQLSchema, query: string): Record<string, string> {
  const document = parse(query);
  const operation = operationOf(document);
  const root = operation.selectionSet.selections[0];
  const firstField = (set: SelectionSetNode) => set.selections.find((node) => node.kind === Kind.FIELD);
  const typename = eachSelectionSet(query, (set, atRoot) => {
    // Not at the root: a second root field is a document no plan takes (`twice` is that one).
    const first = firstField(set);
    if (atRoot || first?.kind !== Kind.FIELD) return set;
    const copy = { ...first, alias: nameNode(`copyOf${first.name.value}`) };
    return {
      ...set,
      selections: [{ kind: Kind.FIELD, name: nameNode('__typename') }, ...set.selections, copy],
    };
  });
  /** The document with its root selections replaced (and definitions added after it). */
  const withRoot = (selections: readonly SelectionNode[], added: readonly DefinitionNode[] = []) =>
    print({
      ...document,
      definitions: [
        ...document.definitions.map((definition) =>
          definition === operation
            ? { ...operation, selectionSet: { ...operation.selectionSet, selections } }
            : definition,
        ),
        ...added,
      ],
    });
  const printed = print(document);
  // One variant for both directives: no plan takes a document with any directive (lean-run.ts's
  // hasFragmentsOrDirectives), and graphql-jit runs each the same in either document.
  const directives = eachSelectionSet(query, (set, atRoot) => {
    const fields = set.selections.filter((node) => node.kind === Kind.FIELD);
    if (fields.length === 0 || atRoot) return set;
    const [first, last] = [fields[0]!, fields[fields.length - 1]!];
    const marked = operationOf(parse('{ a @include(if: $flag) @skip(if: $flag) }')).selectionSet
      .selections[0]!;
    const [include, skip] = marked.directives!;
    const mark = (node: SelectionNode) =>
      node === first || node === last
        ? {
            ...node,
            directives: [
              ...(node.directives ?? []),
              ...(node === first ? [include!] : []),
              ...(node === last ? [skip!] : []),
            ],
          }
        : node;
    return { ...set, selections: set.selections.map(mark) };
  }).replace(/query (\w+)(\(([^)]*)\))?/, (_all, name: string, _p, vars?: string) => {
    const flag = '$flag: Boolean = true';
    return vars ? `query ${name}(${vars}, ${flag})` : `query ${name}(${flag})`;
  });
  const fragmentOf = () => {
    if (root?.kind !== Kind.FIELD || !root.selectionSet) return printed;
    const field = schema.getQueryType()?.getFields()[root.name.value];
    const type = field && getNamedType(field.type);
    if (!isObjectType(type)) return printed;
    const spread = { kind: Kind.FRAGMENT_SPREAD, name: nameNode('Root') } as const;
    const fragment: FragmentDefinitionNode = {
      kind: Kind.FRAGMENT_DEFINITION,
      name: nameNode('Root'),
      typeCondition: { kind: Kind.NAMED_TYPE, name: nameNode(type.name) },
      selectionSet: root.selectionSet,
    };
    return withRoot(
      [{ ...root, selectionSet: { kind: Kind.SELECTION_SET, selections: [spread] } }],
      [fragment],
    );
  };
  if (root?.kind !== Kind.FIELD) throw new Error(`Not a query of a root field: ${query}`);
  return {
    aliased: withRoot([{ ...root, alias: nameNode('aliasedRoot') }]),
    typename,
    fragment: fragmentOf(),
    directives,
    twice: withRoot([
      { ...root, alias: nameNode('first') },
      { kind: Kind.FIELD, alias: nameNode('second'), name: nameNode('__typename') },
    ]),
  };
}
