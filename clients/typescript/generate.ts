import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The client's types, generated from the OpenAPI document (`npm run schema:emit`; a test fails when stale). */
export const CLIENT_TYPES_FILE = path.resolve('clients', 'typescript', 'src', 'schema.d.ts');

export async function printClientTypes(document: object): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(document as OpenAPI3));
}
