import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { RouteMount } from '../route.js';
import { buildOpenApiDocument, DEFAULT_PUBLIC_URL } from './document.js';

/** The checked-in OpenAPI document (a test fails when it is stale; `npm run schema:emit` rewrites it). */
export const OPENAPI_FILE = path.resolve('schema', 'openapi.json');

/** The document as it is committed: for the default origin, two-space JSON with a final newline. */
export function printOpenApiFile(schema: GraphQLSchema, mounts: readonly RouteMount[]): string {
  return (
    JSON.stringify(buildOpenApiDocument(schema, { publicUrl: DEFAULT_PUBLIC_URL, mounts }), null, 2) + '\n'
  );
}
