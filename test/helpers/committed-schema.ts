import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLSchema } from 'graphql';

let schema: GraphQLSchema | undefined;

/**
 * The app's schema as committed (schema/schema.graphql, which test/schema/schema-drift holds equal to the one the
 * code builds): its types, for a file that reads them without evaluating the app's modules to build the schema.
 * It has no resolvers and none of the fields' extensions (requirements, costs): a file asks the server for those
 * (server-side-schema.ts).
 */
export function committedSchema(): GraphQLSchema {
  schema ??= buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
  return schema;
}
