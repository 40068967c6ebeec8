import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLUUID } from 'graphql-scalars';

/**
 * Ids have one written form (docs/api.md "Ids"): 8-4-4-4-12 hexadecimal digits with hyphens, as the service
 * writes them. Upper-case digits are the same UUID (RFC 9562) and are read as lower case; braces, a
 * `urn:uuid:` prefix, missing hyphens and surrounding spaces are refused (graphql-scalars' UUID accepts
 * `{…}`, and PostgreSQL would happily read several of these forms).
 */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function canonicalUuid(value: unknown, node?: ValueNode): string {
  if (typeof value !== 'string' || !CANONICAL_UUID.test(value)) {
    throw new GraphQLError(
      'must be a UUID written as 8-4-4-4-12 hexadecimal digits (no braces, no prefix)',
      node ? { nodes: node } : undefined,
    );
  }
  return value.toLowerCase();
}

/** The schema's UUID scalar, with the same name and description, refusing every non-canonical form. */
export const StrictUUID = new GraphQLScalarType({
  ...GraphQLUUID.toConfig(),
  serialize: (value) => canonicalUuid(value),
  parseValue: (value) => canonicalUuid(value),
  parseLiteral: (node) => canonicalUuid(node.kind === Kind.STRING ? node.value : undefined, node),
});
