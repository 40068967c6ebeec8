import fc from 'fast-check';
import { getNamedType, GraphQLNonNull, isLeafType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { valueOf, type ValueContext } from './values.js';

export interface GraphQLCase {
  mutation: string;
  query: string;
  variables: Record<string, unknown>;
  key: string;
}

/** `mutation($a: T!, ...) { field(a: $a, ...) { __typename } }`: every argument through a variable. */
function documentOf(field: GraphQLField<unknown, unknown>): string {
  const definitions = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `mutation Fuzz${definitions ? `(${definitions})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
}

/** Every mutation of the schema (read from it, so new mutations are fuzzed without a line here). */
export function mutationFields(schema: GraphQLSchema): Array<GraphQLField<unknown, unknown>> {
  return Object.values(schema.getMutationType()?.getFields() ?? {});
}

export function graphqlCases(
  field: GraphQLField<unknown, unknown>,
  context: ValueContext & { keys: string[] },
): fc.Arbitrary<GraphQLCase> {
  const query = documentOf(field);
  const variables = field.args.map((arg) => {
    const required = arg.type instanceof GraphQLNonNull;
    // A required variable is sometimes left out or null (the document still declares it).
    const present = fc.oneof({ weight: required ? 12 : 1, arbitrary: fc.constant(true) }, fc.constant(false));
    return fc
      .tuple(present, valueOf(arg.type, context))
      .map(([keep, value]) => (keep ? [arg.name, value] : null));
  });
  return fc
    .record({ pairs: fc.tuple(...variables), key: fc.constantFrom(...context.keys) })
    .map(({ pairs, key }) => ({
      mutation: field.name,
      query,
      variables: Object.fromEntries(pairs.filter((pair) => pair !== null)),
      key,
    }));
}
