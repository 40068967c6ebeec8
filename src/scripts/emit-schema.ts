/** Writes the GraphQL schema the code builds to schema/schema.graphql (checked in; a test fails when it is stale). */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { printSchemaFile, SCHEMA_FILE } from '../schema-file.js';

writeFileSync(SCHEMA_FILE, await printSchemaFile());
console.log(`Wrote ${SCHEMA_FILE}`);
