/**
 * Writes the OpenAPI document of the REST routes to schema/openapi.json and the typed client's types generated
 * from it to clients/typescript/src/schema.d.ts (both checked in; tests fail when either is stale).
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, printClientTypes } from '../../clients/typescript/generate.js';
import { OPENAPI_FILE, printOpenApiFile } from '../../rest-adapter/openapi/file.js';
import { ROUTE_MOUNTS } from '../features.js';
import { buildAppSchema } from '../schema.js';

const document = printOpenApiFile(await buildAppSchema(), ROUTE_MOUNTS);
writeFileSync(OPENAPI_FILE, document);
console.log(`Wrote ${OPENAPI_FILE}`);
writeFileSync(CLIENT_TYPES_FILE, await printClientTypes(JSON.parse(document) as object));
console.log(`Wrote ${CLIENT_TYPES_FILE}`);
