import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildAppSchema } from './schema.js';

export const SCHEMA_FILE = path.resolve('schema', 'schema.graphql');

const HEADER = '# Emitted by `npm run schema:emit` from the type-graphql resolvers. Do not edit by hand.\n\n';

/** The SDL as it is committed: sorted, so that moving code around does not change the file. */
export async function printSchemaFile(): Promise<string> {
  return HEADER + printSchema(lexicographicSortSchema(await buildAppSchema())) + '\n';
}
