import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApiDocument, DEFAULT_PUBLIC_URL } from './document.js';

/** The checked-in OpenAPI document (a test fails when it is stale; `npm run schema:emit` rewrites it). */
export const OPENAPI_FILE = path.resolve('schema', 'openapi.json');

/** The document as it is committed: for the default origin, two-space JSON with a final newline. */
export function printOpenApiFile(schema: GraphQLSchema): string {
  return JSON.stringify(buildOpenApiDocument(schema, { publicUrl: DEFAULT_PUBLIC_URL }), null, 2) + '\n';
}
